package dev.sluice.bench;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Runs one of the bench scripts (small version) from a test and reads its last line, the JSON summary. */
record ScriptRun(int exitCode, String output, String json) {

    static ScriptRun run(long timeoutSeconds, String... command) throws IOException, InterruptedException {
        ProcessBuilder pb = new ProcessBuilder(List.of(command)).directory(Path.of(".").toAbsolutePath().toFile())
                .redirectErrorStream(true);
        // the harness classes and their dependencies as this test sees them (the scripts need no Maven then)
        pb.environment().put("BENCH_CLASSPATH", System.getProperty("java.class.path"));
        pb.environment().putIfAbsent("LEASE_DURATION", "3s");
        Process p = pb.start();
        StringBuilder out = new StringBuilder();
        Thread reader = new Thread(() -> {
            try {
                out.append(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                out.append(e);
            }
        });
        reader.start();
        if (!p.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            p.destroy(); // the script's trap kills what it started
            p.waitFor(10, TimeUnit.SECONDS);
            reader.join(5000);
            throw new AssertionError("timed out after " + timeoutSeconds + " s:\n" + out);
        }
        reader.join(5000);
        List<String> lines = new ArrayList<>(out.toString().lines().toList());
        String json = lines.stream().filter(l -> l.startsWith("{\"scenario\"")).reduce((a, b) -> b).orElse("");
        return new ScriptRun(p.exitValue(), out.toString(), json);
    }

    long number(String field) {
        Matcher m = Pattern.compile("\"" + field + "\": (-?[0-9.]+)").matcher(json);
        if (!m.find()) {
            throw new AssertionError("no " + field + " in " + json + "\n" + output);
        }
        return (long) Double.parseDouble(m.group(1));
    }
}
