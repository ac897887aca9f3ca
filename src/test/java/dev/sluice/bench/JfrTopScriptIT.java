package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;

/** bench/jfr-top.sh on a recording of this process while one method burns CPU: that method leads the tables. */
class JfrTopScriptIT {

    private static volatile long sink;

    /** The hot method the recording should find. */
    private static long spinForProfile(long nanos) {
        long end = System.nanoTime() + nanos;
        long x = 0;
        while (System.nanoTime() < end) {
            for (int i = 0; i < 10_000; i++) {
                x = x * 31 + i;
            }
        }
        return x;
    }

    @Test
    void theHotMethodLeadsTheTables() throws Exception {
        Path file = Files.createTempFile("jfr-top", ".jfr");
        try (Recording r = new Recording()) {
            r.enable("jdk.ExecutionSample").withPeriod(Duration.ofMillis(10));
            r.start();
            Thread t = new Thread(() -> sink = spinForProfile(Duration.ofSeconds(2).toNanos()), "profiled-spinner");
            t.start();
            t.join();
            r.stop();
            r.dump(file);
        }
        ProcessBuilder pb = new ProcessBuilder("bench/jfr-top.sh", file.toString(), "5", "spinForProfile").redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes());
        assertThat(p.waitFor()).as(out).isZero();
        assertThat(out).containsPattern("\\d+ execution samples with a frame matching spinForProfile");
        String byThread = out.substring(out.indexOf("== by thread"), out.indexOf("== self"));
        assertThat(byThread).contains("profiled-spinner");
        String inclusive = out.substring(out.indexOf("== inclusive"));
        assertThat(inclusive.lines().skip(1).findFirst().orElse("")).contains("100.0%");
        assertThat(inclusive).contains("dev.sluice.bench.JfrTopScriptIT.spinForProfile(long)");
        Files.deleteIfExists(file);
    }
}
