package dev.sluice.bench;

import dev.sluice.sim.KueueBenchmark;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** The figures of one run: a human summary, then one JSON line (the last line printed). */
record Report(String scenario, double scale, List<BenchObjects.Planned> planned, Runner runner, long endMillis,
              boolean complete, double peakRssMiB, LoadDriver.Writes writes, QuotaAudit audit, List<String> notFinished,
              Limit limit, String faults, String restarts, KueueBenchmark.Variant variant,
              LoadDriver.Cpu cpu, LoadDriver.Cpu duringRun, Creator.Lag creation) {

    double wallSeconds() {
        return endMillis / 1000.0;
    }

    long finished() {
        return runner.finished();
    }

    double admissionsPerSecond() {
        return wallSeconds() <= 0 ? 0 : finished() / wallSeconds();
    }

    /** Average seconds from creation to first admission, per workload class. */
    Map<String, Double> avgTimeToAdmission() {
        Map<String, double[]> sums = new TreeMap<>();
        for (Runner.Seen s : runner.seen().values()) {
            if (s.firstAdmittedAt >= 0 && s.createdAt >= 0) {
                double[] acc = sums.computeIfAbsent(s.planned.className(), k -> new double[2]);
                acc[0] += (s.firstAdmittedAt - s.createdAt) / 1000.0;
                acc[1]++;
            }
        }
        Map<String, Double> out = new TreeMap<>();
        sums.forEach((k, v) -> out.put(k, v[0] / v[1]));
        return out;
    }

    double nominalCpu() {
        return variant.cohorts() * variant.queuesPerCohort() * 20.0;
    }

    double cqUsagePercent() {
        return 100.0 * runner.averageHeldCpu(endMillis) / nominalCpu();
    }

    double apiWritesPerAdmission() {
        return runner.admissions() == 0 ? 0 : (double) writes.total() / runner.admissions();
    }

    /** Admissions per second the API server alone allows at the measured writes per admission (4 writers). */
    double limitAdmissionsPerSecond() {
        return limit == null || apiWritesPerAdmission() == 0 ? 0 : limit.concurrentPerSecond() / apiWritesPerAdmission();
    }

    /**
     * The controller's CPU per admission during the run (its start-up left out), in milliseconds: steadier than the
     * wall on a shared machine.
     */
    double controllerCpuMsPerAdmission() {
        return 1000 * duringRun.controller() / Math.max(1, runner.admissions());
    }

    /**
     * The wall that the API server and the load driver took of this machine's cores during the run: on a saturated
     * machine no controller could have finished sooner.
     */
    double harnessWallSeconds() {
        return (duringRun.apiServer() + duringRun.driver()) / CORES;
    }

    private static final int CORES = Runtime.getRuntime().availableProcessors();

    /** The makespan if the cohorts' quota were always fully used. */
    double capacityBoundSeconds() {
        double cpuSeconds = planned.stream().mapToDouble(p -> cpuOf(p) * p.runtimeMillis() / 1000.0).sum();
        double byQuota = cpuSeconds / nominalCpu();
        return Math.max(byQuota, lastPlannedSeconds());
    }

    /** When the schedule creates its last Workload. */
    double lastPlannedSeconds() {
        return planned.stream().mapToLong(BenchObjects.Planned::createAtMillis).max().orElse(0) / 1000.0;
    }

    private static double cpuOf(BenchObjects.Planned p) {
        return p.stream().cpu();
    }

    void print(PrintStream out) {
        Map<String, Double> tta = avgTimeToAdmission();
        out.printf(Locale.ROOT, "%n== %s (scale %s) ==%n", scenario, scale);
        out.printf(Locale.ROOT, "workloads           %d created, %d finished%s%n", planned.size(), finished(),
                complete ? "" : "  (TIMED OUT)");
        out.printf(Locale.ROOT, "wall                %.1f s (capacity bound %.1f s)%n", wallSeconds(), capacityBoundSeconds());
        out.printf(Locale.ROOT, "creation            %d in %.1f s (%.0f/s; the schedule's last at %.1f s); behind schedule "
                        + "max %.3f s, average %.3f s; %d failed attempts%n", creation.created(), creation.spanSeconds(),
                creation.perSecond(), lastPlannedSeconds(), creation.maxSeconds(), creation.avgSeconds(), creation.failures());
        out.printf(Locale.ROOT, "throughput          %.1f workloads/s; %d admissions (incl. re-admissions), %d evictions released%n",
                admissionsPerSecond(), runner.admissions(), runner.releases());
        out.printf(Locale.ROOT, "time to admission   large %.2f s, medium %.2f s, small %.2f s (average)%n",
                tta.getOrDefault("large", 0.0), tta.getOrDefault("medium", 0.0), tta.getOrDefault("small", 0.0));
        out.printf(Locale.ROOT, "ClusterQueue usage  %.1f %% of nominal quota on average%n", cqUsagePercent());
        out.printf(Locale.ROOT, "controller RSS      %.1f MiB peak (VmHWM)%n", peakRssMiB);
        out.printf(Locale.ROOT, "controller writes   %d, %.2f per admission: %s%n", writes.total(), apiWritesPerAdmission(),
                writes.byKind());
        out.printf(Locale.ROOT, "  Workload status   by the reasons each write sets: %s%n", writes.workloadStatusByReasons());
        out.printf(Locale.ROOT, "CPU seconds         controller %.1f, API server %.1f, load driver %.1f (%d cores shared with the "
                + "rest of the machine)%n", cpu.controller(), cpu.apiServer(), cpu.driver(), CORES);
        out.printf(Locale.ROOT, "  during the run    controller %.1f (%.2f ms per admission), API server %.1f, load driver %.1f: "
                        + "the API server and the driver alone took %.1f s of the %d cores' wall%n", duringRun.controller(),
                controllerCpuMsPerAdmission(), duringRun.apiServer(), duringRun.driver(), harnessWallSeconds(), CORES);
        if (limit != null) {
            out.printf(Locale.ROOT, "API server alone    %.0f Workload status writes/s from 1 client, %.0f/s from 4 "
                            + "(after %d untimed) -> at most %.0f admissions/s; the controller reached %.0f %% of that%n",
                    limit.sequentialPerSecond(), limit.concurrentPerSecond(), limit.warmUpWrites(), limitAdmissionsPerSecond(),
                    100 * admissionsPerSecond() / Math.max(1e-9, limitAdmissionsPerSecond()));
        }
        if (faults != null) {
            out.printf(Locale.ROOT, "faults injected     %s%n", faults);
        }
        out.printf(Locale.ROOT, "controller restarts %s%n", restarts);
        out.printf(Locale.ROOT, "auditor             %d changes checked, %d violations, %d lost or unfinished, runner write errors %d "
                        + "(%d conflicts retried)%n",
                audit.changes(), audit.violations().size(), notFinished.size(), runner.writeErrors(), runner.conflicts());
        audit.violations().stream().limit(20).forEach(v -> out.println("  VIOLATION " + v.rule() + ": " + v.detail()));
        notFinished.stream().limit(20).forEach(k -> out.println("  NOT FINISHED " + k + " "
                + runner.lastSeen(k.split(" ", 2)[0])));
        StringBuilder json = new StringBuilder();
        json.append(String.format(Locale.ROOT, "{\"scenario\": \"%s\", \"scale\": %s, \"workloads\": %d, \"finished\": %d, "
                        + "\"wallSeconds\": %.2f, \"admissionsPerSecond\": %.2f, \"peakRssMiB\": %.1f, "
                        + "\"avgTimeToAdmission\": {\"large\": %.3f, \"medium\": %.3f, \"small\": %.3f}, "
                        + "\"cqUsagePercent\": %.1f, \"apiWritesPerAdmission\": %.2f, \"admissions\": %d, \"evictionsReleased\": %d",
                scenario, scale, planned.size(), finished(), wallSeconds(), admissionsPerSecond(), peakRssMiB,
                tta.getOrDefault("large", 0.0), tta.getOrDefault("medium", 0.0), tta.getOrDefault("small", 0.0),
                cqUsagePercent(), apiWritesPerAdmission(), runner.admissions(), runner.releases()));
        json.append(String.format(Locale.ROOT, ", \"creationLagSeconds\": {\"max\": %.3f, \"avg\": %.3f}, "
                        + "\"createdPerSecond\": %.1f, \"creationSeconds\": %.2f",
                creation.maxSeconds(), creation.avgSeconds(), creation.perSecond(), creation.spanSeconds()));
        if (limit != null) {
            json.append(String.format(Locale.ROOT, ", \"apiServerLimit\": {\"statusWritesPerSecond1\": %.1f, "
                            + "\"statusWritesPerSecond4\": %.1f, \"admissionsPerSecond\": %.1f}, \"fractionOfLimit\": %.3f",
                    limit.sequentialPerSecond(), limit.concurrentPerSecond(), limitAdmissionsPerSecond(),
                    admissionsPerSecond() / Math.max(1e-9, limitAdmissionsPerSecond())));
        }
        if (faults != null) {
            json.append(", \"faults\": ").append(faults.trim());
        }
        json.append(String.format(Locale.ROOT, ", \"cpuSeconds\": {\"controller\": %.1f, \"apiServer\": %.1f, \"driver\": %.1f}"
                        + ", \"cpuSecondsDuringRun\": {\"controller\": %.1f, \"apiServer\": %.1f, \"driver\": %.1f}"
                        + ", \"controllerCpuMsPerAdmission\": %.2f, \"harnessWallSeconds\": %.1f",
                cpu.controller(), cpu.apiServer(), cpu.driver(), duringRun.controller(), duringRun.apiServer(),
                duringRun.driver(), controllerCpuMsPerAdmission(), harnessWallSeconds()));
        json.append(", \"restarts\": ").append(restarts.isEmpty() ? "0" : restarts);
        json.append(String.format(Locale.ROOT, ", \"violations\": %d, \"lost\": %d, \"auditedChanges\": %d}",
                audit.violations().size(), notFinished.size(), audit.changes()));
        out.println(json);
    }
}
