package dev.sluice.sim;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Runs the simulate command in-process and keeps what it printed. */
record Sim(int exit, String out, String err) {

    private static final ObjectMapper JSON = new ObjectMapper();

    static Sim run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int exit = SimulateCommand.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Sim(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** Every JSON line, parsed. */
    List<JsonNode> lines() {
        List<JsonNode> nodes = new ArrayList<>();
        for (String line : out.split("\n")) {
            if (!line.isBlank()) {
                try {
                    nodes.add(JSON.readTree(line));
                } catch (Exception e) {
                    throw new AssertionError("not JSON: " + line, e);
                }
            }
        }
        return nodes;
    }

    /** Events of one kind for a job, as "time event" strings. */
    List<JsonNode> events(String event, String job) {
        return lines().stream().filter(n -> event.equals(n.path("event").asText()) && job.equals(n.path("job").asText()))
                .toList();
    }

    JsonNode summary() {
        List<JsonNode> all = lines();
        return all.get(all.size() - 1);
    }
}
