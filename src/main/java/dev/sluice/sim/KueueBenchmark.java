package dev.sluice.sim;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.ClusterQueuePreemption;
import dev.sluice.api.v1beta2.ClusterQueueSpec;
import dev.sluice.api.v1beta2.FlavorQuotas;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.LocalQueueSpec;
import dev.sluice.api.v1beta2.PodSet;
import dev.sluice.api.v1beta2.ReclaimWithinCohort;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.ResourceGroup;
import dev.sluice.api.v1beta2.ResourceQuota;
import dev.sluice.api.v1beta2.WithinClusterQueue;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.api.v1beta2.WorkloadSpec;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Kueue's scheduler benchmark (test/performance/scheduler, DESIGN "Performance references") generated in-process:
 * one ResourceFlavor {@code rf}; per cohort, ClusterQueues {@code cq-0-<q>-cohort-<c>} with 20 cpu nominal quota,
 * borrowing limit 100, reclaimWithinCohort Any and withinClusterQueue LowerPriority, each with a Namespace and a
 * LocalQueue of the same name; per ClusterQueue three streams of bare Workloads (one pod set, one pod, cpu only),
 * the n-th of a stream created at n × its interval, as Kueue's generator does, and finished after its runtime.
 */
public final class KueueBenchmark {

    /** The benchmark's class label on each Workload (small, medium, large). */
    public static final String CLASS_LABEL = "kueue.x-k8s.io/performance-scheduler-class";
    /** The benchmark's running-time label (milliseconds); the simulator reads the duration annotation. */
    public static final String RUNNING_TIME_LABEL = "kueue.x-k8s.io/performance-scheduler-running-ms";
    static final String FLAVOR = "rf";

    /** One stream of workloads per ClusterQueue. */
    public record Stream(String className, int count, long intervalMillis, long runtimeMillis, int priority, int cpu) {
    }

    public record Variant(String name, int cohorts, int queuesPerCohort, List<Stream> streams) {
        public int workloads() {
            return cohorts * queuesPerCohort * streams.stream().mapToInt(Stream::count).sum();
        }
    }

    public static final Variant BASELINE = new Variant("kueue-baseline", 5, 6, List.of(
            new Stream("small", 350, 100, 200, 50, 1),
            new Stream("medium", 100, 500, 500, 100, 5),
            new Stream("large", 50, 1200, 1000, 200, 20)));

    public static final Variant LARGE_SCALE = new Variant("kueue-large-scale", 10, 100, List.of(
            new Stream("small", 35, 60, 150, 50, 1),
            new Stream("medium", 11, 300, 350, 100, 5),
            new Stream("large", 4, 700, 700, 200, 20)));

    public static final List<Variant> VARIANTS = List.of(BASELINE, LARGE_SCALE);

    private KueueBenchmark() {
    }

    public static Variant variant(String name) {
        return VARIANTS.stream().filter(v -> v.name().equals(name)).findFirst().orElse(null);
    }

    /**
     * The variant with every stream's count multiplied by {@code scale} (at least 1), for quick runs.
     */
    public static Variant scaled(Variant v, double scale) {
        if (scale == 1.0) {
            return v;
        }
        return new Variant(v.name(), v.cohorts(), v.queuesPerCohort(), v.streams().stream()
                .map(s -> new Stream(s.className(), Math.max(1, (int) Math.round(s.count() * scale)), s.intervalMillis(),
                        s.runtimeMillis(), s.priority(), s.cpu()))
                .toList());
    }

    /** Feeds the variant's objects to the builder, in the order Kueue's generator creates them per queue. */
    public static void generate(Variant v, ScenarioBuilder builder) {
        generate(v, builder, null);
    }

    /**
     * With {@code topologyName} (for {@code --nodes}) the flavor rf (nodeLabel {@code tas-node-group: tas}, as Kueue's
     * TAS benchmark's flavor) places on that Topology's nodes: every
     * ClusterQueue is then TAS-only, so each Workload is placed as Kueue places a pod set without a topology request
     * there (implied TAS); null for Kueue's benchmark as it is.
     */
    public static void generate(Variant v, ScenarioBuilder builder, String topologyName) {
        Origin origin = new Origin("--generate " + v.name(), 0, null);
        ResourceFlavor rf = new ResourceFlavor();
        rf.setMetadata(new ObjectMetaBuilder().withName(FLAVOR).build());
        if (topologyName != null) {
            dev.sluice.api.v1beta2.ResourceFlavorSpec spec = new dev.sluice.api.v1beta2.ResourceFlavorSpec();
            spec.setTopologyName(topologyName);
            // Kueue refuses a topologyName without nodeLabels; --nodes gives the generated nodes this label
            spec.setNodeLabels(Map.of(KueueTasBenchmark.NODE_GROUP_LABEL, "tas"));
            rf.setSpec(spec);
        }
        builder.flavor(rf, origin);
        for (int c = 0; c < v.cohorts(); c++) {
            String cohort = "cohort-" + c;
            for (int q = 0; q < v.queuesPerCohort(); q++) {
                String name = "cq-0-" + q + "-" + cohort;
                builder.clusterQueue(clusterQueue(name, cohort), origin);
                builder.namespace(name, Map.of(), origin);
                LocalQueue lq = new LocalQueue();
                lq.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(name).build());
                LocalQueueSpec lqs = new LocalQueueSpec();
                lqs.setClusterQueue(name);
                lq.setSpec(lqs);
                builder.localQueue(lq, origin);
            }
        }
        for (int c = 0; c < v.cohorts(); c++) {
            for (int q = 0; q < v.queuesPerCohort(); q++) {
                String ns = "cq-0-" + q + "-cohort-" + c;
                for (int set = 0; set < v.streams().size(); set++) {
                    Stream s = v.streams().get(set);
                    for (int i = 0; i < s.count(); i++) {
                        builder.workload(workload(ns, s, set, i), origin);
                    }
                }
            }
        }
    }

    /** One of the benchmark's ClusterQueues (also created by the end-to-end benchmark in bench/). */
    public static ClusterQueue clusterQueue(String name, String cohort) {
        return clusterQueue(name, cohort, FLAVOR);
    }

    /** The same ClusterQueue on another flavor (Kueue's TAS benchmark's tas-flavor). */
    static ClusterQueue clusterQueue(String name, String cohort, String flavor) {
        ResourceQuota cpu = new ResourceQuota();
        cpu.setName("cpu");
        cpu.setNominalQuota(new Quantity("20"));
        cpu.setBorrowingLimit(new Quantity("100"));
        FlavorQuotas fq = new FlavorQuotas();
        fq.setName(flavor);
        fq.setResources(List.of(cpu));
        ResourceGroup rg = new ResourceGroup();
        rg.setCoveredResources(List.of("cpu"));
        rg.setFlavors(List.of(fq));
        ClusterQueuePreemption p = new ClusterQueuePreemption();
        p.setReclaimWithinCohort(ReclaimWithinCohort.Any);
        p.setWithinClusterQueue(WithinClusterQueue.LowerPriority);
        ClusterQueueSpec spec = new ClusterQueueSpec();
        spec.setCohortName(cohort);
        spec.setNamespaceSelector(new LabelSelector());
        spec.setResourceGroups(List.of(rg));
        spec.setPreemption(p);
        ClusterQueue cq = new ClusterQueue();
        cq.setMetadata(new ObjectMetaBuilder().withName(name).build());
        cq.setSpec(spec);
        return cq;
    }

    /** The i-th Workload of stream {@code set} in a queue's namespace (also created by the end-to-end benchmark). */
    public static Workload workload(String namespace, Stream s, int set, int i) {
        Workload w = new Workload();
        w.setMetadata(new ObjectMetaBuilder().withName(String.format(Locale.ROOT, "%s-%d-%d-0", s.className(), set, i))
                .withNamespace(namespace)
                .addToLabels(CLASS_LABEL, s.className())
                .addToLabels(RUNNING_TIME_LABEL, Long.toString(s.runtimeMillis()))
                .addToAnnotations(WellKnown.SIMULATED_DURATION, s.runtimeMillis() + "ms")
                .addToAnnotations(WellKnown.SIMULATED_SUBMIT_AT, (i + 1) * s.intervalMillis() + "ms")
                .build());
        PodSet ps = new PodSet();
        ps.setName("main");
        ps.setCount(1);
        ps.setTemplate(new PodTemplateSpecBuilder().withNewSpec()
                .withContainers(new ContainerBuilder().withName("c").withNewResources()
                        .addToRequests("cpu", new Quantity(Integer.toString(s.cpu()))).endResources().build())
                .withRestartPolicy("Never").endSpec().build());
        WorkloadSpec spec = new WorkloadSpec();
        spec.setQueueName(namespace);
        spec.setPriority(s.priority());
        spec.setPodSets(List.of(ps));
        w.setSpec(spec);
        return w;
    }
}
