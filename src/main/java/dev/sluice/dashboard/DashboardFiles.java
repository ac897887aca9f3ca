package dev.sluice.dashboard;

import java.io.IOException;
import java.io.InputStream;
import java.util.HashMap;
import java.util.Map;

/**
 * The dashboard's page (index.html, dashboard.js, dashboard.css), read from the jar once, and the headers every
 * answer carries. Shared by the controller's routes and the simulator's {@code --serve}, so both serve one page.
 */
public final class DashboardFiles {
    public static final Map<String, String> TYPES = Map.of(
            "index.html", "text/html; charset=utf-8",
            "dashboard.js", "text/javascript; charset=utf-8",
            "dashboard.css", "text/css; charset=utf-8");

    /** Nothing is loaded from anywhere else, and no other page may frame it. */
    public static final Map<String, String> HEADERS = Map.of(
            "Content-Security-Policy", "default-src 'self'; frame-ancestors 'none'",
            "X-Content-Type-Options", "nosniff",
            "Referrer-Policy", "no-referrer");

    public static final String READ_ONLY = "the dashboard is read-only\n";

    private DashboardFiles() {
    }

    /** Every file of the page by name. */
    public static Map<String, byte[]> load() {
        Map<String, byte[]> files = new HashMap<>();
        TYPES.keySet().forEach(f -> files.put(f, resource(f)));
        return files;
    }

    private static byte[] resource(String name) {
        try (InputStream in = DashboardFiles.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("the dashboard's " + name + " is missing from the jar");
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalStateException("the dashboard's " + name + " cannot be read: " + e.getMessage(), e);
        }
    }
}
