package dev.sluice.sim;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.Map;

/** {@code --output json}: one object per event, then a Summary object (DESIGN, "Simulator"). */
public final class JsonOutput {

    private JsonOutput() {
    }

    public static void write(SimResult result, PrintStream out) {
        StringBuilder buf = new StringBuilder(1 << 16);
        for (SimEvent e : result.events()) {
            Json j = new Json().number("time", Durations.seconds(e.timeMillis())).field("event", e.type().name())
                    .field("workload", e.workload().name()).field("namespace", e.workload().namespace())
                    .field("job", e.job());
            if (e.clusterQueue() != null) {
                j.field("clusterQueue", e.clusterQueue());
            }
            if (!e.flavors().isEmpty()) {
                j.map("flavors", e.flavors());
            }
            if (!e.placements().isEmpty()) {
                j.raw("placements", Placements.json(e.placements()));
            }
            if (e.message() != null) {
                j.field("message", e.message());
            }
            buf.append(j).append('\n');
            if (buf.length() > 1 << 15) {
                out.print(buf);
                buf.setLength(0);
            }
        }
        out.print(buf);
        out.println(summary(result));
        out.flush();
    }

    static String summary(SimResult r) {
        Json j = new Json().field("event", "Summary").number("makespan", Durations.seconds(r.endMillis()))
                .number("workloads", r.runs().size()).number("admitted", r.everAdmitted()).number("finished", r.finished())
                .number("pending", r.pending()).number("admissions", r.admissions()).number("preemptions", r.preemptions())
                .number("evictions", r.evictions()).map("evictionsByReason", r.evictionsByReason())
                .number("cycles", r.cycles()).number("wallSeconds", r.wallSeconds()).number("cpuSeconds", r.cpuSeconds())
                .number("decisionsPerSecond", Math.round(r.decisionsPerSecond()))
                .map("averageWaitByPriorityClass", r.averageWaitByPriorityClass());
        Map<String, Double> byClass = r.averageTimeToAdmissionByClass();
        if (!byClass.isEmpty()) {
            j.map("averageTimeToAdmissionByClass", byClass);
        }
        Map<String, Object> usage = new LinkedHashMap<>();
        for (UsageTracker.Series s : r.usage().series()) {
            Map<String, Object> one = new LinkedHashMap<>();
            one.put("nominal", s.nominal() / 1000.0);
            one.put("average", s.average(r.endMillis()) / 1000.0);
            one.put("peak", s.peak() / 1000.0);
            if (s.nominal() > 0) {
                one.put("averageOfNominal", s.average(r.endMillis()) / s.nominal());
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> cq = (Map<String, Object>) usage.computeIfAbsent(s.clusterQueue(), k -> new LinkedHashMap<>());
            cq.put(s.flavorResource().flavor() + "/" + s.flavorResource().resource(), one);
        }
        j.map("clusterQueueUsage", usage);
        if (r.shares() != null) {
            Map<String, Object> cohorts = new LinkedHashMap<>();
            for (String c : r.shares().cohortNames()) {
                ShareTracker.Series s = r.shares().cohortShares().get(c);
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("averageWeightedShare", s == null ? 0.0 : s.average(0, r.endMillis()));
                one.put("peakWeightedShare", s == null ? 0.0 : s.peak());
                cohorts.put(c, one);
            }
            j.map("cohortShares", cohorts);
            Map<String, Object> queues = new LinkedHashMap<>();
            r.shares().clusterQueueShares().forEach((cq, s) -> {
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("averageWeightedShare", s.average(0, r.endMillis()));
                one.put("peakWeightedShare", s.peak());
                queues.put(cq, one);
            });
            j.map("clusterQueueShares", queues);
        }
        if (r.localQueueUsage() != null) {
            Map<String, Object> lqs = new LinkedHashMap<>();
            for (LocalQueueUsageTracker.Row row : r.localQueueUsage()) {
                Map<String, Object> one = new LinkedHashMap<>();
                one.put("clusterQueue", row.clusterQueue());
                one.put("weight", row.weight());
                one.put("peakUsage", row.peakUsage());
                one.put("usageAtEnd", row.lastUsage());
                one.put("consumedAtEnd", new LinkedHashMap<String, Object>(row.consumed()));
                lqs.put(row.namespace() + "/" + row.name(), one);
            }
            j.map("localQueueAdmissionFairSharing", lqs);
        }
        return j.toString();
    }
}
