package dev.sluice.image;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * A tiny base image in {@code docker save} format (manifest.json, a config and one uncompressed layer), so the
 * image build runs with no registry and no daemon. It holds no JRE: Jib only stacks layers on a base.
 */
final class SyntheticBaseImage {

    static final String OS_RELEASE = "etc/os-release";
    static final List<String> ENV = List.of("PATH=/opt/java/openjdk/bin:/usr/bin:/bin", "JAVA_HOME=/opt/java/openjdk");
    private static final ObjectMapper JSON = new ObjectMapper();

    private SyntheticBaseImage() {
    }

    /** Writes the base image to {@code tar}; returns its one layer's diff id (sha256 of the layer tar). */
    static String write(Path tar) throws IOException {
        byte[] layer = layerTar();
        String diffId = "sha256:" + sha256(layer);
        byte[] config = JSON.writeValueAsBytes(Map.of(
                "architecture", "amd64", "os", "linux",
                "config", Map.of("Env", ENV),
                "rootfs", Map.of("type", "layers", "diff_ids", List.of(diffId))));
        String configName = sha256(config) + ".json";
        byte[] manifest = JSON.writeValueAsBytes(List.of(Map.of(
                "Config", configName, "RepoTags", List.of("synthetic/base:1"), "Layers", List.of("layer1/layer.tar"))));
        try (TarArchiveOutputStream out = new TarArchiveOutputStream(Files.newOutputStream(tar))) {
            add(out, configName, config);
            add(out, "layer1/layer.tar", layer);
            add(out, "manifest.json", manifest);
        }
        return diffId;
    }

    private static byte[] layerTar() throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (TarArchiveOutputStream out = new TarArchiveOutputStream(bytes)) {
            TarArchiveEntry etc = new TarArchiveEntry("etc/");
            out.putArchiveEntry(etc);
            out.closeArchiveEntry();
            add(out, OS_RELEASE, "ID=synthetic\n".getBytes(StandardCharsets.UTF_8));
        }
        return bytes.toByteArray();
    }

    private static void add(TarArchiveOutputStream out, String name, byte[] content) throws IOException {
        TarArchiveEntry entry = new TarArchiveEntry(name);
        entry.setSize(content.length);
        out.putArchiveEntry(entry);
        ((OutputStream) out).write(content);
        out.closeArchiveEntry();
    }

    static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
