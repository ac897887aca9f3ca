package dev.sluice.image;

import com.google.cloud.tools.jib.api.Containerizer;
import com.google.cloud.tools.jib.api.ImageReference;
import com.google.cloud.tools.jib.api.InvalidImageReferenceException;
import com.google.cloud.tools.jib.api.Jib;
import com.google.cloud.tools.jib.api.JibContainer;
import com.google.cloud.tools.jib.api.JibContainerBuilder;
import com.google.cloud.tools.jib.api.LogEvent;
import com.google.cloud.tools.jib.api.RegistryImage;
import com.google.cloud.tools.jib.api.TarImage;
import com.google.cloud.tools.jib.api.buildplan.AbsoluteUnixPath;
import com.google.cloud.tools.jib.api.buildplan.FileEntriesLayer;
import com.google.cloud.tools.jib.api.buildplan.FileEntry;
import com.google.cloud.tools.jib.api.buildplan.FilePermissions;
import com.google.cloud.tools.jib.api.buildplan.Port;
import com.google.cloud.tools.jib.frontend.CredentialRetrieverFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.function.Consumer;

/**
 * The image Quarkus 3.30's Jib extension builds from a fast-jar (target/quarkus-app), written as a
 * {@code docker save}-format tarball: the extension itself can only hand its image to a Docker daemon or push it
 * to a registry. Same layers in the same order (lib, quarkus-run.jar, app, quarkus, the working directory owned by
 * the run user), same entrypoint, working directory, user, ports and time stamps.
 * <p>
 * Not carried over: the extension's split of SNAPSHOT dependencies into a layer of their own (Sluice has none),
 * AppCDS, {@code src/main/jib} extra files and multi-platform builds (a tarball holds one platform).
 */
final class FastJarImage {

    static final String RUN_JAR = "quarkus-run.jar";
    /** The run user the extension gives the default working directory to. */
    private static final String RUN_USER_ID = "185";

    private FastJarImage() {
    }

    /** Builds the image from {@code quarkusApp} on the configured base and writes it to {@code tar}. */
    static JibContainer writeTar(Path quarkusApp, ImageSettings settings, Path tar, Consumer<LogEvent> log)
            throws Exception {
        if (!Files.isRegularFile(quarkusApp.resolve(RUN_JAR))) {
            throw new IllegalArgumentException("no fast-jar in " + quarkusApp + " (" + RUN_JAR
                    + " is missing): run ./mvnw package first, with the default quarkus.package.jar.type=fast-jar");
        }
        JibContainerBuilder image = layers(base(settings, log), quarkusApp, settings);
        Files.createDirectories(tar.toAbsolutePath().getParent());
        Containerizer containerizer = Containerizer.to(TarImage.at(tar).named(settings.imageName()))
                .setToolName("sluice-image-tarball/jib-core")
                .setOfflineMode(settings.offline())
                .addEventHandler(LogEvent.class, log);
        settings.baseLayersCache().ifPresent(containerizer::setBaseImageLayersCache);
        settings.applicationLayersCache().ifPresent(containerizer::setApplicationLayersCache);
        return image.containerize(containerizer);
    }

    /** A {@code tar://} or {@code docker://} base as Jib reads it, otherwise a registry image with credentials. */
    private static JibContainerBuilder base(ImageSettings settings, Consumer<LogEvent> log)
            throws InvalidImageReferenceException {
        String base = settings.baseImage();
        if (base.startsWith(Jib.TAR_IMAGE_PREFIX)) {
            Path path = Path.of(base.substring(Jib.TAR_IMAGE_PREFIX.length()));
            if (!Files.isRegularFile(path)) {
                throw new IllegalArgumentException("base image tarball not found: " + path.toAbsolutePath() + " ("
                        + ImageSettings.BASE_IMAGE + "=" + base + "; write one with `docker save` or `skopeo copy"
                        + " docker://IMAGE docker-archive:FILE`)");
            }
            return Jib.from(base);
        }
        if (base.startsWith(Jib.DOCKER_DAEMON_IMAGE_PREFIX)) {
            return Jib.from(base);
        }
        ImageReference reference = ImageReference.parse(base);
        CredentialRetrieverFactory credentials = CredentialRetrieverFactory.forImage(reference, log);
        RegistryImage registryImage = RegistryImage.named(reference)
                .addCredentialRetriever(credentials.wellKnownCredentialHelpers())
                .addCredentialRetriever(credentials.dockerConfig());
        if (settings.baseUsername().isPresent() && settings.basePassword().isPresent()) {
            registryImage.addCredential(settings.baseUsername().get(), settings.basePassword().get());
        }
        return Jib.from(registryImage);
    }

    private static JibContainerBuilder layers(JibContainerBuilder image, Path quarkusApp, ImageSettings settings)
            throws IOException {
        // Reproducible unless asked otherwise: every file at the epoch (quarkus.jib.use-current-timestamp-file-
        // modification=false); else real modification times and the build time for the run jar, as Quarkus does.
        boolean fileTimes = settings.currentFileTimestamps();
        Instant fixedTime = fileTimes ? Instant.now() : Instant.EPOCH;
        AbsoluteUnixPath workDir = AbsoluteUnixPath.get(settings.workingDirectory());

        image.addFileEntriesLayer(directoryLayer("fast-jar-lib", quarkusApp.resolve("lib"), workDir, fileTimes));
        image.addFileEntriesLayer(FileEntriesLayer.builder().setName("fast-jar-run")
                .addEntry(quarkusApp.resolve(RUN_JAR), workDir.resolve(RUN_JAR),
                        FilePermissions.DEFAULT_FILE_PERMISSIONS, fixedTime)
                .build());
        image.addFileEntriesLayer(directoryLayer("fast-jar-quarkus-app", quarkusApp.resolve("app"), workDir, fileTimes));
        image.addFileEntriesLayer(directoryLayer("fast-jar-quarkus", quarkusApp.resolve("quarkus"), workDir, fileTimes));
        if (ImageSettings.DEFAULT_WORKING_DIRECTORY.equals(settings.workingDirectory())) {
            // The JRE base has no /home/jboss; the extension adds it, owned by the run user.
            Path emptyDirectory = Files.createTempDirectory("sluice-image");
            emptyDirectory.toFile().deleteOnExit();
            image.addFileEntriesLayer(FileEntriesLayer.builder()
                    .addEntry(new FileEntry(emptyDirectory, workDir, FilePermissions.DEFAULT_FOLDER_PERMISSIONS,
                            fixedTime, RUN_USER_ID))
                    .build());
        }
        image.setWorkingDirectory(workDir)
                .setEntrypoint(settings.entrypoint())
                .setEnvironment(settings.environment())
                .setLabels(settings.labels());
        settings.user().ifPresent(image::setUser);
        if (settings.currentTimestamp()) {
            image.setCreationTime(Instant.now());
        }
        for (int port : settings.ports()) {
            image.addExposedPort(Port.tcp(port));
        }
        return image;
    }

    /** {@code dir} and everything in it under the working directory. */
    private static FileEntriesLayer directoryLayer(String name, Path dir, AbsoluteUnixPath workDir, boolean fileTimes)
            throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException("fast-jar directory missing: " + dir + " (rebuild with ./mvnw package)");
        }
        return FileEntriesLayer.builder().setName(name)
                .addEntryRecursive(dir, workDir.resolve(dir.getFileName()),
                        FileEntriesLayer.DEFAULT_FILE_PERMISSIONS_PROVIDER,
                        (source, target) -> fileTimes ? modified(source) : Instant.EPOCH,
                        FileEntriesLayer.DEFAULT_OWNERSHIP_PROVIDER)
                .build();
    }

    private static Instant modified(Path file) {
        try {
            return Files.getLastModifiedTime(file).toInstant();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
