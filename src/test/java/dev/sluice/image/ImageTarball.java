package dev.sluice.image;

import com.google.cloud.tools.jib.api.JibContainer;
import com.google.cloud.tools.jib.api.LogEvent;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Build step behind {@code ./mvnw package -DskipTests -Pimage-tar}: Sluice's container image as a
 * {@code docker save}-format tarball, with no Docker daemon and no registry to push to (docs/container-image.md).
 * It lives with the tests so that Jib stays off the application's class path.
 * <p>
 * Arguments: the fast-jar directory (target/quarkus-app), the built application.properties, the tarball to
 * write and the project version (the default image tag).
 */
public final class ImageTarball {

    private ImageTarball() {
    }

    public static void main(String[] args) throws Exception {
        JibContainer image = build(List.of(args), Map.of(), ImageTarball::print);
        System.out.println("[image-tar] " + args[2] + ": " + image.getTargetImage() + ", image id "
                + image.getImageId() + " (load it with `docker load -i " + args[2] + "`)");
    }

    /** {@code overrides} take precedence over system properties (tests set the base image there). */
    static JibContainer build(List<String> args, Map<String, String> overrides, Consumer<LogEvent> log)
            throws Exception {
        if (args.size() != 4) {
            throw new IllegalArgumentException("expected 4 arguments (quarkus-app directory, application.properties,"
                    + " output tarball, project version), got " + args.size() + ": " + args);
        }
        ImageSettings settings = ImageSettings.read(Path.of(args.get(1)), args.get(3), overrides);
        return FastJarImage.writeTar(Path.of(args.get(0)), settings, Path.of(args.get(2)), log);
    }

    private static void print(LogEvent event) {
        if (event.getLevel().compareTo(LogEvent.Level.LIFECYCLE) <= 0 && !event.getMessage().isEmpty()) {
            System.out.println("[image-tar] " + event.getMessage());
        }
    }
}
