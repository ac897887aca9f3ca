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
        // the PLACEMENT column only when some admission has a topology assignment: other timelines stay as they were
        boolean placed = result.events().stream().anyMatch(e -> !e.placements().isEmpty());
        TextTable timeline = placed
                ? new TextTable("TIME", "EVENT", "JOB", "CLUSTERQUEUE", "FLAVORS", "PLACEMENT", "MESSAGE")
                : new TextTable("TIME", "EVENT", "JOB", "CLUSTERQUEUE", "FLAVORS", "MESSAGE");
        for (SimEvent e : result.events()) {
            String time = Durations.seconds(e.timeMillis()) + "s";
            String cq = e.clusterQueue() == null ? "" : e.clusterQueue();
            String message = e.message() == null ? "" : e.message();
            if (placed) {
                timeline.row(time, e.type().name(), e.job(), cq, flavors(e.flavors()), Placements.text(e.placements()),
                        message);
            } else {
                timeline.row(time, e.type().name(), e.job(), cq, flavors(e.flavors()), message);
            }
        }
        timeline.print(out);

        out.println();
        out.println("Workloads at " + Durations.seconds(result.endMillis()) + "s:");
        TextTable workloads = new TextTable("NAMESPACE", "NAME", "QUEUE", "RESERVED IN", "ADMITTED", "FINISHED", "AGE",
                "WAITED", "PREEMPTED", "EVICTED");
        List<WorkloadRun> sorted = new ArrayList<>(result.runs());
        sorted.sort((a, b) -> a.workload().key().compareTo(b.workload().key()));
        for (WorkloadRun r : sorted) {
            boolean admitted = r.isRunning() || r.finishedMillis() != null;
            // a waiting Workload has Admitted=False (reason NoReservation), as the controller and Kueue v0.19 write it
            workloads.row(r.workload().key().namespace(), r.workload().key().name(), r.workload().spec().queueName(),
                    admitted ? r.clusterQueue() : "", admitted ? "True" : "False", r.finishedMillis() != null ? "True" : "",
                    Durations.human(result.endMillis() - r.workload().submitAtMillis()), Durations.human(r.waitedMillis()),
                    Integer.toString(r.preemptions()), Integer.toString(r.evictions()));
        }
        workloads.print(out);

        out.println();
        out.println("ClusterQueue usage over " + Durations.seconds(result.endMillis()) + "s:");
        TextTable usage = new TextTable("CLUSTERQUEUE", "FLAVOR", "RESOURCE", "NOMINAL", "AVERAGE", "PEAK", "AVERAGE/NOMINAL");
        for (UsageTracker.Series s : result.usage().series()) {
            double avg = s.average(result.endMillis());
            usage.row(s.clusterQueue(), s.flavorResource().flavor(), s.flavorResource().resource(), amount(s.nominal()),
                    average(avg), amount(s.peak()),
                    s.nominal() == 0 ? "-" : Math.round(100 * avg / s.nominal()) + "%");
        }
        usage.print(out);

        if (result.shares() != null) {
            out.println();
            out.println("Cohorts over " + Durations.seconds(result.endMillis()) + "s (weighted share: Kueue's"
                    + " status.fairSharing.weightedShare, time-averaged):");
            cohorts(result, out);
        }

        if (result.localQueueUsage() != null) {
            out.println();
            out.println("LocalQueues (admission fair sharing; usage as kueue_local_queue_admission_fair_sharing_usage):");
            TextTable lqs = new TextTable("NAMESPACE", "LOCALQUEUE", "CLUSTERQUEUE", "WEIGHT", "PEAK USAGE",
                    "USAGE AT END", "CONSUMED AT END");
            for (LocalQueueUsageTracker.Row row : result.localQueueUsage()) {
                List<String> consumed = new ArrayList<>();
                row.consumed().forEach((resource, amount) -> consumed.add(resource + "=" + Json.format(amount)));
                lqs.row(row.namespace(), row.name(), row.clusterQueue(), Json.format(row.weight()),
                        Json.format(row.peakUsage()), Json.format(row.lastUsage()), String.join(",", consumed));
            }
            lqs.print(out);
        }

        out.println();
        out.printf("%d workloads: %d admitted, %d finished, %d pending, %d preemptions, %s; makespan %ss; engine %.3fs (%d decisions/s)%n",
                result.runs().size(), result.everAdmitted(), result.finished(), result.pending(), result.preemptions(),
                evictions(result),
                Durations.seconds(result.endMillis()), result.wallSeconds(), Math.round(result.decisionsPerSecond()));
        out.flush();
    }

    /** "3 evictions (PodsReadyTimeout 2, Preempted 1)", or "0 evictions". */
    static String evictions(SimResult result) {
        List<String> parts = new ArrayList<>();
        result.evictionsByReason().forEach((reason, n) -> parts.add(reason + " " + n));
        return result.evictions() + " evictions" + (parts.isEmpty() ? "" : " (" + String.join(", ", parts) + ")");
    }

    /**
     * Each cohort: parent, weight, average and peak weighted share, and per flavor/resource what the ClusterQueues
     * of its subtree hold as nominal quota and use on average (above it: borrowed from the pools and siblings); then
     * each ClusterQueue's share.
     */
    private static void cohorts(SimResult result, PrintStream out) {
        ShareTracker shares = result.shares();
        long end = result.endMillis();
        TextTable table = new TextTable("COHORT", "PARENT", "WEIGHT", "AVERAGE SHARE", "PEAK SHARE", "FLAVOR", "RESOURCE",
                "QUEUES' NOMINAL", "QUEUES' AVERAGE USAGE");
        for (String cohort : shares.cohortNames()) {
            ShareTracker.Series s = shares.cohortShares().get(cohort);
            String parent = shares.parent(cohort) == null ? "" : shares.parent(cohort);
            String avg = s == null ? "0" : share(s.average(0, end));
            String peak = s == null ? "0" : share(s.peak());
            var usage = shares.subtreeUsage(cohort, result.usage(), end);
            if (usage.isEmpty()) {
                table.row(cohort, parent, Json.format(shares.weight(cohort)), avg, peak, "", "", "", "");
            }
            for (var e : usage.entrySet()) {
                table.row(cohort, parent, Json.format(shares.weight(cohort)), avg, peak, e.getKey().flavor(),
                        e.getKey().resource(), amount((long) e.getValue()[0]), average(e.getValue()[1]));
            }
        }
        table.print(out);
        TextTable queues = new TextTable("CLUSTERQUEUE", "AVERAGE SHARE", "PEAK SHARE");
        shares.clusterQueueShares().forEach((cq, s) -> queues.row(cq, share(s.average(0, end)), share(s.peak())));
        out.println();
        queues.print(out);
    }

    private static String share(double value) {
        return Double.isInfinite(value) ? "inf" : Json.format(value);
    }

    /** Canonical quantity: 24, 500m, 32Gi. */
    private static String amount(long milli) {
        return dev.sluice.engine.Quantity.formatMilli(milli);
    }

    /** An average, rounded: 17.143, or 10.667Gi for byte amounts of a GiB and more. */
    private static String average(double milli) {
        double units = milli / 1000.0;
        double gi = 1024.0 * 1024 * 1024;
        return units >= gi ? Json.format(units / gi) + "Gi" : Json.format(units);
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
