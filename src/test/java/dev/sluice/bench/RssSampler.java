package dev.sluice.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The controller's peak resident set (VmHWM in /proc/PID/status), read every half second from the process named in
 * a pid file; after a restart the pid file names the new process, and the peak is the largest of any.
 */
final class RssSampler {

    private final Path pidFile;
    private volatile long peakKiB;
    /** CPU ticks last read per controller process (a restart adds a process). */
    private final java.util.Map<Long, Long> cpuTicks = new java.util.HashMap<>();
    private Thread thread;

    RssSampler(String pidFile) {
        this.pidFile = pidFile == null ? null : Path.of(pidFile);
    }

    void start() {
        if (pidFile == null) {
            return;
        }
        thread = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                sample();
                try {
                    Thread.sleep(500);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "rss-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    long pid() {
        try {
            return pidFile == null || !Files.exists(pidFile) ? -1 : Long.parseLong(Files.readString(pidFile).trim());
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
    }

    synchronized void sample() {
        long pid = pid();
        if (pid <= 0) {
            return;
        }
        peakKiB = Math.max(peakKiB, vmHwmKiB(Path.of("/proc", Long.toString(pid), "status")));
        long ticks = cpuTicks(pid);
        if (ticks > 0) {
            cpuTicks.put(pid, ticks);
        }
    }

    /** CPU seconds the controller processes used so far (user + system). */
    synchronized double controllerCpuSeconds() {
        return cpuTicks.values().stream().mapToLong(Long::longValue).sum() / 100.0;
    }

    /** utime + stime of a process in clock ticks (100 per second on Linux), 0 when it is gone. */
    static long cpuTicks(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc", Long.toString(pid), "stat"));
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }

    /** VmHWM in KiB from a /proc status file; 0 when the process is gone. */
    static long vmHwmKiB(Path status) {
        try {
            for (String line : Files.readAllLines(status)) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.substring(6).replace("kB", "").trim());
                }
            }
        } catch (IOException | NumberFormatException e) {
            // gone (killed or restarting)
        }
        return 0;
    }

    double peakMiB() {
        return peakKiB / 1024.0;
    }

    /** Stops sampling and ends the controller (SIGTERM), so that the API server can be measured alone. */
    void stopController() throws InterruptedException {
        if (thread != null) {
            thread.interrupt();
        }
        sample();
        long pid = pid();
        if (pid > 0) {
            var handle = ProcessHandle.of(pid);
            if (handle.isPresent()) {
                handle.get().destroy();
                handle.get().onExit().orTimeout(15, java.util.concurrent.TimeUnit.SECONDS).exceptionally(e -> null).join();
            }
        }
    }
}
