package dev.sluice.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * A {@code docker save}-format image tarball as {@code docker load} reads it: manifest.json, the config it names
 * and the layers in order, each unpacked (its sha256 checked against the config's diff id by the caller).
 */
record ImageArchive(JsonNode manifest, JsonNode config, List<Layer> layers) {

    /** One layer: the sha256 of its uncompressed tar and its entries by path. */
    record Layer(String diffId, Map<String, Entry> entries) {
    }

    /** A file or directory in a layer: owner uid, modification time (epoch millis) and content sha256 (files). */
    record Entry(boolean directory, long uid, long modifiedMillis, String sha256) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    static ImageArchive read(Path tar) throws IOException {
        Map<String, byte[]> files = new HashMap<>();
        try (TarArchiveInputStream in = new TarArchiveInputStream(Files.newInputStream(tar))) {
            for (TarArchiveEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                if (entry.isFile()) {
                    files.put(entry.getName(), in.readAllBytes());
                }
            }
        }
        JsonNode manifest = JSON.readTree(required(files, "manifest.json"));
        JsonNode config = JSON.readTree(required(files, manifest.path(0).path("Config").asText()));
        List<Layer> layers = new ArrayList<>();
        for (JsonNode name : manifest.path(0).path("Layers")) {
            layers.add(layer(required(files, name.asText())));
        }
        return new ImageArchive(manifest, config, layers);
    }

    private static Layer layer(byte[] compressed) throws IOException {
        byte[] tar;
        try (InputStream in = new GZIPInputStream(new ByteArrayInputStream(compressed))) {
            tar = in.readAllBytes();
        }
        Map<String, Entry> entries = new LinkedHashMap<>();
        try (TarArchiveInputStream in = new TarArchiveInputStream(new ByteArrayInputStream(tar))) {
            for (TarArchiveEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                String name = entry.getName().endsWith("/")
                        ? entry.getName().substring(0, entry.getName().length() - 1) : entry.getName();
                String sha = entry.isFile() ? SyntheticBaseImage.sha256(in.readAllBytes()) : null;
                entries.put(name, new Entry(entry.isDirectory(), entry.getLongUserId(),
                        entry.getModTime().getTime(), sha));
            }
        }
        return new Layer("sha256:" + SyntheticBaseImage.sha256(tar), entries);
    }

    private static byte[] required(Map<String, byte[]> files, String name) {
        byte[] content = files.get(name);
        if (content == null) {
            throw new AssertionError("image tarball has no " + name + "; it has " + files.keySet());
        }
        return content;
    }
}
