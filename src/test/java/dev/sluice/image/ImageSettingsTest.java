package dev.sluice.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The image settings are read as Quarkus's Jib extension reads them, with its defaults. */
class ImageSettingsTest {

    @TempDir
    Path dir;

    private ImageSettings read(String properties, Map<String, String> overrides) throws Exception {
        Path file = dir.resolve("application.properties");
        Files.writeString(file, properties);
        return ImageSettings.read(file, "1.2.3", overrides);
    }

    @Test
    void sluicesOwnSettingsGiveAJavaEntrypointAsUser185() throws Exception {
        ImageSettings settings = read(Files.readString(Path.of("src/main/resources/application.properties")), Map.of());
        assertThat(settings.baseImage()).isEqualTo("eclipse-temurin:17-jre");
        assertThat(settings.imageName()).isEqualTo("sluice-dev/sluice:1.2.3");
        assertThat(settings.user()).contains("185");
        assertThat(settings.ports()).containsExactly(8443, 9000);
        assertThat(settings.entrypoint()).containsExactly("java",
                "-Djava.util.logging.manager=org.jboss.logmanager.LogManager", "-jar", "quarkus-run.jar");
        assertThat(settings.workingDirectory()).isEqualTo("/home/jboss");
        assertThat(settings.currentTimestamp()).isFalse();
        assertThat(settings.currentFileTimestamps()).isFalse();
    }

    @Test
    void extensionDefaultsApplyWhenUnset() throws Exception {
        ImageSettings settings = read("quarkus.jib.base-jvm-image=example/jre:17\n", Map.of());
        assertThat(settings.user()).isEmpty();
        assertThat(settings.ports()).containsExactly(8080);
        assertThat(settings.workingDirectory()).isEqualTo(ImageSettings.DEFAULT_WORKING_DIRECTORY);
        assertThat(settings.currentTimestamp()).isTrue();
        assertThat(settings.currentFileTimestamps()).isTrue();
        assertThat(settings.offline()).isFalse();
        assertThat(settings.imageName()).isEqualTo("sluice:1.2.3");
    }

    @Test
    void overridesBeatTheFileAndTheProdProfileApplies() throws Exception {
        ImageSettings settings = read("""
                quarkus.jib.base-jvm-image=example/jre:17
                %prod.quarkus.jib.ports=1,2
                %test.quarkus.jib.ports=3
                quarkus.jib.jvm-additional-arguments=-Xss512k
                quarkus.jib.environment-variables.java-opts.extra=-Dx=y
                quarkus.container-image.registry=registry.example.com
                quarkus.container-image.group=team
                quarkus.container-image.tag=v1
                """, Map.of(ImageSettings.BASE_IMAGE, "tar:///tmp/base.tar"));
        assertThat(settings.baseImage()).isEqualTo("tar:///tmp/base.tar");
        assertThat(settings.ports()).containsExactly(1, 2);
        assertThat(settings.entrypoint()).containsExactly("java",
                ImageSettings.DEFAULT_JVM_ARGUMENTS, "-Xss512k", "-jar", "quarkus-run.jar");
        assertThat(settings.environment()).isEqualTo(Map.of("JAVA_OPTS_EXTRA", "-Dx=y"));
        assertThat(settings.imageName()).isEqualTo("registry.example.com/team/sluice:v1");
    }

    @Test
    void anExplicitImageNameAndEntrypointWin() throws Exception {
        ImageSettings settings = read("""
                quarkus.jib.base-jvm-image=example/jre:17
                quarkus.container-image.image=example.org/x/y:z
                quarkus.jib.jvm-entrypoint=/bin/sh,-c,exec java -jar quarkus-run.jar
                """, Map.of());
        assertThat(settings.imageName()).isEqualTo("example.org/x/y:z");
        assertThat(settings.entrypoint()).isEqualTo(List.of("/bin/sh", "-c", "exec java -jar quarkus-run.jar"));
    }

    @Test
    void aMissingBaseImageSaysWhichSetting() {
        assertThatThrownBy(() -> read("quarkus.jib.user=185\n", Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(ImageSettings.BASE_IMAGE + " is not set");
    }

    @Test
    void aMissingPropertiesFileSaysToPackageFirst() {
        assertThatThrownBy(() -> ImageSettings.read(dir.resolve("absent.properties"), "1", Map.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("run ./mvnw package first");
    }
}
