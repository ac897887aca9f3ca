package dev.sluice.metrics;

import io.micrometer.prometheus.PrometheusMeterRegistry;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The Prometheus text format scraped from a registry, parsed into series (name, labels) and values. */
final class Scrape {

    record Series(String name, Map<String, String> labels, double value) {
    }

    final String text;
    final List<Series> series = new ArrayList<>();
    /** Metric family name to its TYPE (counter, gauge, histogram). */
    final Map<String, String> types = new LinkedHashMap<>();

    private Scrape(String text) {
        this.text = text;
        for (String line : text.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                String[] parts = line.substring(7).split(" ");
                types.put(parts[0], parts[1]);
            } else if (!line.isBlank() && !line.startsWith("#")) {
                series.add(parse(line));
            }
        }
    }

    static Scrape of(PrometheusMeterRegistry registry) {
        return new Scrape(registry.scrape());
    }

    /** The value of the one series with this name and exactly these labels (name, value, name, value...). */
    double value(String name, String... labels) {
        return find(name, labels).orElseThrow(() -> new AssertionError("no series " + name + labelMap(labels)
                + " in scrape:\n" + text)).value();
    }

    Optional<Series> find(String name, String... labels) {
        Map<String, String> wanted = labelMap(labels);
        return series.stream().filter(s -> s.name().equals(name) && s.labels().equals(wanted)).findFirst();
    }

    /** All series of this name whose labels include these. */
    List<Series> all(String name, String... labels) {
        Map<String, String> wanted = labelMap(labels);
        return series.stream().filter(s -> s.name().equals(name)
                && s.labels().entrySet().containsAll(wanted.entrySet())).toList();
    }

    private static Map<String, String> labelMap(String... labels) {
        Map<String, String> map = new TreeMap<>();
        for (int i = 0; i < labels.length; i += 2) {
            map.put(labels[i], labels[i + 1]);
        }
        return map;
    }

    private static Series parse(String line) {
        int space = line.lastIndexOf(' ');
        String head = line.substring(0, space);
        double value = Double.parseDouble(line.substring(space + 1).replace("+Inf", "Infinity"));
        int brace = head.indexOf('{');
        if (brace < 0) {
            return new Series(head, Map.of(), value);
        }
        Map<String, String> labels = new TreeMap<>();
        String body = head.substring(brace + 1, head.lastIndexOf('}'));
        int i = 0;
        while (i < body.length()) {
            int eq = body.indexOf('=', i);
            int close = body.indexOf('"', eq + 2); // label values here hold no escaped quotes
            labels.put(body.substring(i, eq), body.substring(eq + 2, close));
            i = close + 1;
            if (i < body.length() && body.charAt(i) == ',') {
                i++;
            }
        }
        return new Series(head.substring(0, brace), labels, value);
    }
}
