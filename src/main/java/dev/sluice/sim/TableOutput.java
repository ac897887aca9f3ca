package dev.sluice.sim;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * {@code --output table}: the timeline (time, event, job, ClusterQueue, flavors, message), then the workloads as
 * {@code kubectl get workloads} would show them at the end, then each ClusterQueue's use of its quota.
 */
public final class TableOutput {

    private TableOutput() {
    }

    public static void write(SimResult result, PrintStream out) {
        TextTable timeline = new TextTable("TIME", "EVENT", "JOB", "CLUSTERQUEUE", "FLAVORS", "MESSAGE");
        for (SimEvent e : result.events()) {
            timeline.row(Durations.seconds(e.timeMillis()) + "s", e.type().name(), e.job(),
                    e.clusterQueue() == null ? "" : e.clusterQueue(), flavors(e.flavors()),
                    e.message() == null ? "" : e.message());
        }
        timeline.print(out);

        out.println();
        out.println("Workloads at " + Durations.seconds(result.endMillis()) + "s:");
        TextTable workloads = new TextTable("NAMESPACE", "NAME", "QUEUE", "RESERVED IN", "ADMITTED", "FINISHED", "AGE",
                "WAITED", "PREEMPTED");
        List<WorkloadRun> sorted = new ArrayList<>(result.runs());
        sorted.sort((a, b) -> a.workload().key().compareTo(b.workload().key()));
        for (WorkloadRun r : sorted) {
            boolean admitted = r.isRunning() || r.finishedMillis() != null;
            workloads.row(r.workload().key().namespace(), r.workload().key().name(), r.workload().spec().queueName(),
                    admitted ? r.clusterQueue() : "", admitted ? "True" : "", r.finishedMillis() != null ? "True" : "",
                    Durations.human(result.endMillis() - r.workload().submitAtMillis()), Durations.human(r.waitedMillis()),
                    Integer.toString(r.preemptions()));
        }
        workloads.print(out);

        out.println();
        out.println("ClusterQueue usage over " + Durations.seconds(result.endMillis()) + "s:");
        TextTable usage = new TextTable("CLUSTERQUEUE", "FLAVOR", "RESOURCE", "NOMINAL", "AVERAGE", "PEAK", "AVERAGE/NOMINAL");
        for (UsageTracker.Series s : result.usage().series()) {
            double avg = s.average(result.endMillis());
            usage.row(s.clusterQueue(), s.flavorResource().flavor(), s.flavorResource().resource(), amount(s.nominal()),
                    Json.format(avg / 1000.0), amount(s.peak()),
                    s.nominal() == 0 ? "-" : Math.round(100 * avg / s.nominal()) + "%");
        }
        usage.print(out);

        out.println();
        out.printf("%d workloads: %d admitted, %d finished, %d pending, %d preemptions; makespan %ss; engine %.3fs (%d decisions/s)%n",
                result.runs().size(), result.everAdmitted(), result.finished(), result.pending(), result.evictions(),
                Durations.seconds(result.endMillis()), result.wallSeconds(), Math.round(result.decisionsPerSecond()));
        out.flush();
    }

    private static String amount(long milli) {
        return Json.format(milli / 1000.0);
    }

    /** {@code slice=vlp-24}, or {@code main=cpu:a,memory:b} when a pod set's resources use different flavors. */
    static String flavors(Map<String, Map<String, String>> flavors) {
        List<String> parts = new ArrayList<>();
        flavors.forEach((podSet, byResource) -> {
            TreeSet<String> distinct = new TreeSet<>(byResource.values());
            if (distinct.size() <= 1) {
                parts.add(podSet + "=" + (distinct.isEmpty() ? "" : distinct.first()));
            } else {
                List<String> rs = new ArrayList<>();
                byResource.forEach((r, f) -> rs.add(r + ":" + f));
                parts.add(podSet + "=" + String.join(",", rs));
            }
        });
        return String.join(" ", parts);
    }
}
