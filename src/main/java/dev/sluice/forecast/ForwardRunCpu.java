package dev.sluice.forecast;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/** CPU time of the calling thread, for the forecast's budget and its reported cost. */
final class ForwardRunCpu {
    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private ForwardRunCpu() {
    }

    static long now() {
        return THREADS.isCurrentThreadCpuTimeSupported() ? THREADS.getCurrentThreadCpuTime() : System.nanoTime();
    }
}
