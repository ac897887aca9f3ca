package dev.sluice.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Reading a process's peak resident set and CPU time from /proc. */
class RssSamplerTest {

    @Test
    void readsVmHwmInKiB(@TempDir Path dir) throws Exception {
        Path status = dir.resolve("status");
        Files.writeString(status, "Name:\tjava\nVmPeak:\t 1781084 kB\nVmHWM:\t  381440 kB\nVmRSS:\t  300000 kB\n");
        assertThat(RssSampler.vmHwmKiB(status)).isEqualTo(381_440);
        assertThat(RssSampler.vmHwmKiB(dir.resolve("gone"))).isZero();
    }

    @Test
    void samplesTheProcessNamedInThePidFileAndKeepsThePeak(@TempDir Path dir) throws Exception {
        Path pidFile = dir.resolve("pid");
        Files.writeString(pidFile, ProcessHandle.current().pid() + "\n");
        RssSampler sampler = new RssSampler(pidFile.toString());
        sampler.sample();
        assertThat(sampler.peakMiB()).isGreaterThan(1);
        assertThat(RssSampler.cpuTicks(ProcessHandle.current().pid())).isPositive();
        Files.writeString(pidFile, "999999999\n"); // a process that is gone: the peak stays
        double peak = sampler.peakMiB();
        sampler.sample();
        assertThat(sampler.peakMiB()).isEqualTo(peak);
    }
}
