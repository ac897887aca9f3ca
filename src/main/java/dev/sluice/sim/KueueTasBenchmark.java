package dev.sluice.sim;

import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.LocalQueueSpec;
import dev.sluice.api.v1beta2.PodSet;
import dev.sluice.api.v1beta2.PodSetTopologyRequest;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.ResourceFlavorSpec;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.api.v1beta2.WorkloadSpec;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Kueue v0.19.2's TAS scheduler benchmark (test/performance/scheduler/configs/tas/generator.yaml) generated
 * in-process: the baseline's 5 cohorts × 6 ClusterQueues (20 cpu nominal, borrowing limit 100) on one TAS flavor
 * {@code tas-flavor} (nodeLabel {@code tas-node-group: tas}), and per ClusterQueue nine streams of bare Workloads,
 * each one pod set "main" of 2, 4 or 8 pods asking the rack level as required, preferred or "balanced" (a
 * slice-required rack with slices of 1, 2 or 4 pods), 15,000 in all. Its cluster is Kueue's 1 block × 10 racks ×
 * 64 hosts of 96 cpu and 256Gi, unless {@code --nodes} gives another (the workloads then ask its middle level).
 */
public final class KueueTasBenchmark {

    public static final String NAME = "kueue-tas";
    static final String FLAVOR = "tas-flavor";
    static final String NODE_GROUP_LABEL = "tas-node-group";
    /** Kueue's topology: default-topology of cloud.provider.com/topology-block, -rack and the hostname. */
    public static final SyntheticNodes KUEUE_NODES = new SyntheticNodes(1, 10, 64,
            SyntheticNodes.DEFAULT_ALLOCATABLE, List.of("cloud.provider.com/topology-block",
                    "cloud.provider.com/topology-rack", dev.sluice.engine.tas.Topology.HOSTNAME), "default-topology");

    public enum Constraint { REQUIRED, PREFERRED, BALANCED }

    /** One workloadsSet of Kueue's config: count workloads created every interval, each podCount pods of request. */
    public record Stream(String className, int count, long intervalMillis, long runtimeMillis, int priority,
                         long requestMilli, int podCount, Constraint constraint, int sliceSize) {
    }

    public static final List<Stream> STREAMS = List.of(
            new Stream("small-required-rack", 120, 100, 200, 50, 500, 2, Constraint.REQUIRED, 0),
            new Stream("small-preferred-rack", 120, 100, 200, 50, 500, 2, Constraint.PREFERRED, 0),
            new Stream("small-balanced-rack", 110, 100, 200, 50, 500, 2, Constraint.BALANCED, 1),
            new Stream("medium-required-rack", 34, 500, 500, 100, 1250, 4, Constraint.REQUIRED, 0),
            new Stream("medium-preferred-rack", 33, 500, 500, 100, 1250, 4, Constraint.PREFERRED, 0),
            new Stream("medium-balanced-rack", 33, 500, 500, 100, 1250, 4, Constraint.BALANCED, 2),
            new Stream("large-required-rack", 17, 1200, 1000, 200, 2500, 8, Constraint.REQUIRED, 0),
            new Stream("large-preferred-rack", 17, 1200, 1000, 200, 2500, 8, Constraint.PREFERRED, 0),
            new Stream("large-balanced-rack", 16, 1200, 1000, 200, 2500, 8, Constraint.BALANCED, 4));

    private KueueTasBenchmark() {
    }

    public static int workloads(double scale) {
        return KueueBenchmark.BASELINE.cohorts() * KueueBenchmark.BASELINE.queuesPerCohort()
                * STREAMS.stream().mapToInt(s -> scaled(s.count(), scale)).sum();
    }

    static int scaled(int count, double scale) {
        return scale == 1.0 ? count : Math.max(1, (int) Math.round(count * scale));
    }

    /** Feeds the benchmark to the builder: nodes (Kueue's unless given), flavor, queues, then the workloads. */
    public static void generate(double scale, SyntheticNodes nodes, ScenarioBuilder builder) {
        SyntheticNodes cluster = nodes == null ? KUEUE_NODES : nodes;
        Origin origin = new Origin("--generate " + NAME, 0, null);
        builder.syntheticNodes(cluster, origin);
        ResourceFlavor rf = new ResourceFlavor();
        rf.setMetadata(new ObjectMetaBuilder().withName(FLAVOR).build());
        ResourceFlavorSpec spec = new ResourceFlavorSpec();
        spec.setNodeLabels(Map.of(NODE_GROUP_LABEL, "tas"));
        spec.setTopologyName(cluster.topologyName());
        rf.setSpec(spec);
        builder.flavor(rf, origin);
        var v = KueueBenchmark.BASELINE;
        for (int c = 0; c < v.cohorts(); c++) {
            String cohort = "cohort-" + c;
            for (int q = 0; q < v.queuesPerCohort(); q++) {
                String name = "cq-0-" + q + "-" + cohort;
                builder.clusterQueue(KueueBenchmark.clusterQueue(name, cohort, FLAVOR), origin);
                builder.namespace(name, Map.of(), origin);
                LocalQueue lq = new LocalQueue();
                lq.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(name).build());
                LocalQueueSpec lqs = new LocalQueueSpec();
                lqs.setClusterQueue(name);
                lq.setSpec(lqs);
                builder.localQueue(lq, origin);
            }
        }
        String rack = cluster.levels().get(1);
        for (int c = 0; c < v.cohorts(); c++) {
            for (int q = 0; q < v.queuesPerCohort(); q++) {
                String ns = "cq-0-" + q + "-cohort-" + c;
                for (int set = 0; set < STREAMS.size(); set++) {
                    Stream s = STREAMS.get(set);
                    int count = scaled(s.count(), scale);
                    for (int i = 0; i < count; i++) {
                        builder.workload(workload(ns, s, set, i, rack), origin);
                    }
                }
            }
        }
    }

    /** The i-th Workload of stream {@code set}, named as Kueue's generator names it ({@code class-set-i-0}). */
    static Workload workload(String namespace, Stream s, int set, int i, String level) {
        Workload w = new Workload();
        w.setMetadata(new ObjectMetaBuilder().withName(String.format(Locale.ROOT, "%s-%d-%d-0", s.className(), set, i))
                .withNamespace(namespace)
                .addToLabels(KueueBenchmark.CLASS_LABEL, s.className())
                .addToLabels(KueueBenchmark.RUNNING_TIME_LABEL, Long.toString(s.runtimeMillis()))
                .addToAnnotations(WellKnown.SIMULATED_DURATION, s.runtimeMillis() + "ms")
                .addToAnnotations(WellKnown.SIMULATED_SUBMIT_AT, (i + 1) * s.intervalMillis() + "ms")
                .build());
        PodSetTopologyRequest tr = new PodSetTopologyRequest();
        switch (s.constraint()) {
            case REQUIRED -> tr.setRequired(level);
            case PREFERRED -> tr.setPreferred(level);
            case BALANCED -> {
                tr.setPodSetSliceRequiredTopology(level);
                if (s.sliceSize() > 0) {
                    tr.setPodSetSliceSize(s.sliceSize());
                }
            }
        }
        PodSet ps = new PodSet();
        ps.setName("main");
        ps.setCount(s.podCount());
        ps.setTopologyRequest(tr);
        ps.setTemplate(new PodTemplateSpecBuilder().withNewSpec()
                .withContainers(new ContainerBuilder().withName("c").withNewResources()
                        .addToRequests("cpu", new Quantity(s.requestMilli() + "m")).endResources().build())
                .withRestartPolicy("Never").endSpec().build());
        WorkloadSpec spec = new WorkloadSpec();
        spec.setQueueName(namespace);
        spec.setPriority(s.priority());
        spec.setPodSets(List.of(ps));
        w.setSpec(spec);
        return w;
    }
}
