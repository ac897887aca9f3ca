package dev.sluice.bench;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.LocalQueueSpec;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.sim.KueueBenchmark;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Kueue's benchmark as cluster objects. The parameters (cohorts, queues, streams) are the simulator's
 * {@link KueueBenchmark.Variant}s; the simulator's generator builds the same objects but hands them straight to its
 * own scenario builder, so this class makes them for the API server instead. Names, labels and quotas are as Kueue's
 * generator makes them: ClusterQueue {@code cq-0-<q>-cohort-<c>} (20 cpu, borrowingLimit 100, reclaimWithinCohort
 * Any, withinClusterQueue LowerPriority) with a Namespace and LocalQueue of the same name.
 */
public final class BenchObjects {

    public static final String FLAVOR = "rf";

    /**
     * One Workload to create at {@code createAtMillis} after the start, running {@code runtimeMillis} once admitted:
     * the {@code index}-th of stream {@code set} in {@code namespace}. The object itself is built when asked for: the
     * large-scale variant's 50,000 models held for the whole run were most of the driver's heap and its collections.
     */
    public record Planned(String namespace, String name, KueueBenchmark.Stream stream, int set, int index,
                          long createAtMillis, long runtimeMillis) {
        public String key() {
            return namespace + "/" + name;
        }

        public String className() {
            return stream.className();
        }

        public Workload workload() {
            return BenchObjects.workload(namespace, stream, set, index);
        }
    }

    /** The {@code index}-th Workload of stream {@code set} in {@code namespace}, as planned by Kueue's generator. */
    public static Planned planned(String namespace, KueueBenchmark.Variant v, int set, int index, long runtimeMillis) {
        KueueBenchmark.Stream s = v.streams().get(set);
        return new Planned(namespace, name(s, set, index), s, set, index, (index + 1) * s.intervalMillis(), runtimeMillis);
    }

    /** The name {@link KueueBenchmark#workload} gives (its Kueue-generator form: class-set-index-0). */
    static String name(KueueBenchmark.Stream s, int set, int index) {
        return s.className() + "-" + set + "-" + index + "-0";
    }

    private BenchObjects() {
    }

    public static List<String> queueNames(KueueBenchmark.Variant v) {
        List<String> names = new ArrayList<>();
        for (int c = 0; c < v.cohorts(); c++) {
            for (int q = 0; q < v.queuesPerCohort(); q++) {
                names.add("cq-0-" + q + "-cohort-" + c);
            }
        }
        return names;
    }

    public static ResourceFlavor flavor() {
        ResourceFlavor rf = new ResourceFlavor();
        rf.setMetadata(new ObjectMetaBuilder().withName(FLAVOR).build());
        return rf;
    }

    public static Namespace namespace(String name) {
        return new NamespaceBuilder().withNewMetadata().withName(name).endMetadata().build();
    }

    public static ClusterQueue clusterQueue(String name) {
        return KueueBenchmark.clusterQueue(name, name.substring(name.indexOf("cohort-")));
    }

    public static LocalQueue localQueue(String name) {
        LocalQueue lq = new LocalQueue();
        lq.setMetadata(new ObjectMetaBuilder().withName(name).withNamespace(name).build());
        LocalQueueSpec spec = new LocalQueueSpec();
        spec.setClusterQueue(name);
        lq.setSpec(spec);
        return lq;
    }

    /** Every Workload of the variant, in creation order (the n-th of a stream at n × its interval). */
    public static List<Planned> workloads(KueueBenchmark.Variant v) {
        List<Planned> out = new ArrayList<>();
        for (String ns : queueNames(v)) {
            for (int set = 0; set < v.streams().size(); set++) {
                KueueBenchmark.Stream s = v.streams().get(set);
                for (int i = 0; i < s.count(); i++) {
                    out.add(planned(ns, v, set, i, s.runtimeMillis()));
                }
            }
        }
        out.sort(Comparator.comparingLong(Planned::createAtMillis));
        return out;
    }

    static Workload workload(String namespace, KueueBenchmark.Stream s, int set, int i) {
        return KueueBenchmark.workload(namespace, s, set, i);
    }
}
