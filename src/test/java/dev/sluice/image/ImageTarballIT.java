package dev.sluice.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image tarball of {@code ./mvnw package -DskipTests -Pimage-tar} (docs/container-image.md), built by the
 * same entry point with the arguments the profile passes, from the fast-jar the build just packaged and FROM a
 * synthetic base tarball: no Docker daemon, no registry, no network.
 */
class ImageTarballIT {

    private static final Path QUARKUS_APP = Path.of("target", "quarkus-app");
    private static final Path PROPERTIES = Path.of("target", "classes", "application.properties");
    private static final String WORKDIR = "home/jboss/";

    @TempDir
    static Path dir;
    static String baseDiffId;
    static ImageArchive image;

    @BeforeAll
    static void buildImage() throws Exception {
        baseDiffId = SyntheticBaseImage.write(dir.resolve("base.tar"));
        image = ImageArchive.read(build("sluice.tar", "tar://" + dir.resolve("base.tar").toAbsolutePath()));
    }

    static Path build(String output, String baseImage) throws Exception {
        Path tar = dir.resolve(output);
        ImageTarball.build(List.of(QUARKUS_APP.toString(), PROPERTIES.toString(), tar.toString(), "it"),
                Map.of(ImageSettings.BASE_IMAGE, baseImage,
                        // keep Jib's caches out of the home directory; a fresh application cache per build
                        "quarkus.jib.base-image-layers-cache", dir.resolve("base-cache").toString(),
                        "quarkus.jib.application-layers-cache", dir.resolve("app-cache-" + output).toString()),
                event -> { });
        return tar;
    }

    @Test
    void manifestNamesTheImageAndEveryLayerMatchesItsDiffId() {
        JsonNode manifest = image.manifest().path(0);
        assertThat(manifest.path("RepoTags")).hasSize(1);
        assertThat(manifest.path("RepoTags").path(0).asText()).isEqualTo("sluice-dev/sluice:it");
        List<String> diffIds = new ArrayList<>();
        image.config().path("rootfs").path("diff_ids").forEach(id -> diffIds.add(id.asText()));
        // what `docker load` checks: the layers, uncompressed, are the ones the config names, in order
        assertThat(image.layers()).extracting(ImageArchive.Layer::diffId).containsExactlyElementsOf(diffIds);
        assertThat(diffIds).hasSize(6);
    }

    @Test
    void baseImageIsTheBottomLayerAndItsEnvironmentIsKept() {
        assertThat(image.layers().get(0).diffId()).isEqualTo(baseDiffId);
        assertThat(image.layers().get(0).entries()).containsKey(SyntheticBaseImage.OS_RELEASE);
        assertThat(image.config().path("architecture").asText()).isEqualTo("amd64");
        assertThat(image.config().path("os").asText()).isEqualTo("linux");
        assertThat(strings(image.config().path("config").path("Env")))
                .containsExactlyElementsOf(SyntheticBaseImage.ENV);
    }

    @Test
    void runsTheRunJarWithJavaAsUser185OnTheWebhookAndManagementPorts() {
        JsonNode config = image.config().path("config");
        assertThat(strings(config.path("Entrypoint"))).containsExactly("java",
                "-Djava.util.logging.manager=org.jboss.logmanager.LogManager", "-jar", "quarkus-run.jar");
        assertThat(config.path("WorkingDir").asText()).isEqualTo("/home/jboss");
        assertThat(config.path("User").asText()).isEqualTo("185");
        List<String> ports = new ArrayList<>();
        config.path("ExposedPorts").fieldNames().forEachRemaining(ports::add);
        assertThat(ports).containsExactlyInAnyOrder("8443/tcp", "9000/tcp");
    }

    @Test
    void layersHoldTheWholeFastJarUnderTheWorkingDirectoryInQuarkussOrder() throws IOException {
        Map<String, String> inImage = new TreeMap<>();
        for (ImageArchive.Layer layer : image.layers().subList(1, image.layers().size())) {
            layer.entries().forEach((path, entry) -> {
                if (!entry.directory()) {
                    inImage.put(path, entry.sha256());
                }
            });
        }
        assertThat(inImage).isEqualTo(fastJar()).containsKey(WORKDIR + "quarkus-run.jar");
        // lib (changes least), the run jar, app, quarkus: as Quarkus's Jib extension stacks them
        assertThat(files(1)).allMatch(path -> path.startsWith(WORKDIR + "lib/"))
                .anyMatch(path -> path.startsWith(WORKDIR + "lib/boot/"))
                .anyMatch(path -> path.startsWith(WORKDIR + "lib/main/"));
        assertThat(files(2)).containsExactly(WORKDIR + "quarkus-run.jar");
        assertThat(files(3)).isNotEmpty().allMatch(path -> path.startsWith(WORKDIR + "app/"));
        assertThat(files(4)).isNotEmpty().allMatch(path -> path.startsWith(WORKDIR + "quarkus/"));
    }

    @Test
    void workingDirectoryBelongsToTheRunUser() {
        Map<String, ImageArchive.Entry> top = image.layers().get(5).entries();
        assertThat(top.get("home/jboss")).isNotNull();
        assertThat(top.get("home/jboss").directory()).isTrue();
        assertThat(top.get("home/jboss").uid()).isEqualTo(185);
    }

    @Test
    void sameFastJarGivesTheSameImage() throws Exception {
        assertThat(image.config().path("created").asText()).isEqualTo("1970-01-01T00:00:00Z");
        for (ImageArchive.Layer layer : image.layers().subList(1, image.layers().size())) {
            // the epoch, and Jib's epoch + 1 s for the parent directories it adds: no build-time stamp
            assertThat(layer.entries().values()).allMatch(entry -> entry.modifiedMillis() <= 1000);
        }
        ImageArchive again = ImageArchive.read(build("again.tar", "tar://" + dir.resolve("base.tar").toAbsolutePath()));
        assertThat(again.config()).isEqualTo(image.config());
        assertThat(again.manifest()).isEqualTo(image.manifest());
    }

    @Test
    void missingBaseTarballIsNamedWithTheSettingToFix() {
        Path missing = dir.resolve("no-such-base.tar").toAbsolutePath();
        assertThatThrownBy(() -> build("never.tar", "tar://" + missing))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("base image tarball not found: " + missing)
                .hasMessageContaining(ImageSettings.BASE_IMAGE);
        assertThat(dir.resolve("never.tar")).doesNotExist();
    }

    /** Every file of target/quarkus-app, as the image should hold it: path under the working directory, sha256. */
    private static Map<String, String> fastJar() throws IOException {
        Map<String, String> files = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(QUARKUS_APP)) {
            // quarkus-app-dependencies.txt is a build report: the extension ships it only for remote dev
            for (Path file : (Iterable<Path>) walk.filter(Files::isRegularFile)
                    .filter(file -> !file.getFileName().toString().equals("quarkus-app-dependencies.txt"))::iterator) {
                files.put(WORKDIR + QUARKUS_APP.relativize(file).toString().replace('\\', '/'),
                        SyntheticBaseImage.sha256(Files.readAllBytes(file)));
            }
        }
        return files;
    }

    private static List<String> files(int layer) {
        List<String> files = new ArrayList<>();
        image.layers().get(layer).entries().forEach((path, entry) -> {
            if (!entry.directory()) {
                files.add(path);
            }
        });
        return files;
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(value -> values.add(value.asText()));
        return values;
    }
}
