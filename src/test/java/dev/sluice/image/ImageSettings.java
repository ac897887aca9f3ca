package dev.sluice.image;

import io.smallrye.config.EnvConfigSource;
import io.smallrye.config.PropertiesConfigSource;
import io.smallrye.config.SmallRyeConfig;
import io.smallrye.config.SmallRyeConfigBuilder;
import io.smallrye.config.SysPropConfigSource;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The image settings Quarkus's Jib extension reads ({@code quarkus.jib.*}, {@code quarkus.container-image.*}),
 * read the same way: SmallRye Config, prod profile, application.properties below system properties and
 * environment variables. So {@code -Dquarkus.jib.base-jvm-image=tar:///path/base.tar} works for both builds.
 * Defaults are the extension's (Quarkus 3.30).
 */
record ImageSettings(String baseImage, Optional<String> baseUsername, Optional<String> basePassword,
        String imageName, Optional<String> user, List<Integer> ports, List<String> entrypoint,
        String workingDirectory, Map<String, String> environment, Map<String, String> labels,
        boolean currentTimestamp, boolean currentFileTimestamps, boolean offline,
        Optional<Path> baseLayersCache, Optional<Path> applicationLayersCache) {

    static final String BASE_IMAGE = "quarkus.jib.base-jvm-image";
    static final String DEFAULT_WORKING_DIRECTORY = "/home/jboss";
    static final String DEFAULT_JVM_ARGUMENTS = "-Djava.util.logging.manager=org.jboss.logmanager.LogManager";

    /** Precedence as in Quarkus: overrides (tests), system properties, environment, then the file. */
    static ImageSettings read(Path applicationProperties, String version, Map<String, String> overrides) {
        if (!Files.isRegularFile(applicationProperties)) {
            throw new IllegalArgumentException("application.properties not found at " + applicationProperties
                    + ": run ./mvnw package first");
        }
        SmallRyeConfig config;
        try {
            // Sources named one by one: SmallRye's defaults would also read whatever application.properties is
            // on the class path, and this reads the one it is given.
            config = new SmallRyeConfigBuilder().addDefaultInterceptors().withProfile("prod")
                    .withSources(new SysPropConfigSource(), new EnvConfigSource(System.getenv(), 300))
                    .withSources(new PropertiesConfigSource(applicationProperties.toUri().toURL(), 250))
                    .withSources(new PropertiesConfigSource(overrides, "overrides", 500))
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        String base = config.getOptionalValue(BASE_IMAGE, String.class).orElseThrow(
                () -> new IllegalArgumentException(BASE_IMAGE + " is not set (application.properties sets it to"
                        + " a JRE image such as eclipse-temurin:17-jre)"));
        List<String> entrypoint = config.getOptionalValues("quarkus.jib.jvm-entrypoint", String.class)
                .orElseGet(() -> javaEntrypoint(config));
        List<Integer> ports = config.getOptionalValues("quarkus.jib.ports", Integer.class)
                .orElseGet(() -> List.of(config.getOptionalValue("quarkus.http.port", Integer.class).orElse(8080)));
        return new ImageSettings(base,
                config.getOptionalValue("quarkus.jib.base-registry-username", String.class),
                config.getOptionalValue("quarkus.jib.base-registry-password", String.class),
                imageName(config, version),
                config.getOptionalValue("quarkus.jib.user", String.class),
                ports, entrypoint,
                config.getOptionalValue("quarkus.jib.working-directory", String.class)
                        .orElse(DEFAULT_WORKING_DIRECTORY),
                environment(config), map(config, "quarkus.container-image.labels."),
                flag(config, "quarkus.jib.use-current-timestamp", true),
                flag(config, "quarkus.jib.use-current-timestamp-file-modification", true),
                flag(config, "quarkus.jib.offline-mode", false),
                config.getOptionalValue("quarkus.jib.base-image-layers-cache", String.class).map(Path::of),
                config.getOptionalValue("quarkus.jib.application-layers-cache", String.class).map(Path::of));
    }

    /** {@code java <jvm-arguments> <jvm-additional-arguments> -jar quarkus-run.jar}, as the extension runs a JRE base. */
    private static List<String> javaEntrypoint(SmallRyeConfig config) {
        List<String> entrypoint = new ArrayList<>();
        entrypoint.add("java");
        entrypoint.addAll(config.getOptionalValues("quarkus.jib.jvm-arguments", String.class)
                .orElse(List.of(DEFAULT_JVM_ARGUMENTS)));
        entrypoint.addAll(config.getOptionalValues("quarkus.jib.jvm-additional-arguments", String.class)
                .orElse(List.of()));
        entrypoint.add("-jar");
        entrypoint.add("quarkus-run.jar");
        return List.copyOf(entrypoint);
    }

    /** {@code quarkus.container-image.image}, else {@code [registry/]group/name:tag} with the project version as tag. */
    private static String imageName(SmallRyeConfig config, String version) {
        Optional<String> image = config.getOptionalValue("quarkus.container-image.image", String.class);
        if (image.isPresent()) {
            return image.get();
        }
        String name = config.getOptionalValue("quarkus.container-image.name", String.class).orElse("sluice");
        String repository = config.getOptionalValue("quarkus.container-image.group", String.class)
                .filter(group -> !group.isBlank()).map(group -> group + "/" + name).orElse(name);
        String tag = config.getOptionalValue("quarkus.container-image.tag", String.class).orElse(version);
        return config.getOptionalValue("quarkus.container-image.registry", String.class)
                .map(registry -> registry + "/").orElse("") + repository + ":" + tag;
    }

    /** Variable names as the extension writes them: upper case, '-', '.' and '/' become '_'. */
    private static Map<String, String> environment(SmallRyeConfig config) {
        Map<String, String> env = new TreeMap<>();
        map(config, "quarkus.jib.environment-variables.").forEach((name, value) -> env.put(
                name.toUpperCase().replace('-', '_').replace('.', '_').replace('/', '_'), value));
        return env;
    }

    private static Map<String, String> map(SmallRyeConfig config, String prefix) {
        Map<String, String> values = new TreeMap<>();
        for (String name : config.getPropertyNames()) {
            if (name.startsWith(prefix)) {
                values.put(unquote(name.substring(prefix.length())), config.getValue(name, String.class));
            }
        }
        return values;
    }

    private static String unquote(String key) {
        return key.length() > 1 && key.startsWith("\"") && key.endsWith("\"") ? key.substring(1, key.length() - 1) : key;
    }

    private static boolean flag(SmallRyeConfig config, String name, boolean fallback) {
        return config.getOptionalValue(name, Boolean.class).orElse(fallback);
    }
}
