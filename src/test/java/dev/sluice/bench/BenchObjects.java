package dev.sluice.bench;

import dev.sluice.api.v1beta1.ClusterQueue;
import dev.sluice.api.v1beta1.ClusterQueuePreemption;
import dev.sluice.api.v1beta1.ClusterQueueSpec;
import dev.sluice.api.v1beta1.FlavorQuotas;
import dev.sluice.api.v1beta1.LocalQueue;
import dev.sluice.api.v1beta1.LocalQueueSpec;
import dev.sluice.api.v1beta1.PodSet;
import dev.sluice.api.v1beta1.ReclaimWithinCohort;
import dev.sluice.api.v1beta1.ResourceFlavor;
import dev.sluice.api.v1beta1.ResourceGroup;
import dev.sluice.api.v1beta1.ResourceQuota;
import dev.sluice.api.v1beta1.WithinClusterQueue;
import dev.sluice.api.v1beta1.Workload;
import dev.sluice.api.v1beta1.WorkloadSpec;
import dev.sluice.sim.KueueBenchmark;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.LabelSelector;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.PodTemplateSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Kueue's benchmark as cluster objects. The parameters (cohorts, queues, streams) are the simulator's
 * {@link KueueBenchmark.Variant}s; the simulator's generator builds the same objects but hands them straight to its
 * own scenario builder, so this class makes them for the API server instead. Names, labels and quotas are as Kueue's
 * generator makes them: ClusterQueue {@code cq-0-<q>-cohort-<c>} (20 cpu, borrowingLimit 100, reclaimWithinCohort
 * Any, withinClusterQueue LowerPriority) with a Namespace and LocalQueue of the same name.
 */
public final class BenchObjects {

    public static final String FLAVOR = "rf";

    /** One Workload to create at {@code createAtMillis} after the start, running {@code runtimeMillis} once admitted. */
    public record Planned(Workload workload, String className, long createAtMillis, long runtimeMillis) {
        public String key() {
            return workload.getMetadata().getNamespace() + "/" + workload.getMetadata().getName();
        }
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
        ResourceQuota cpu = new ResourceQuota();
        cpu.setName("cpu");
        cpu.setNominalQuota(new Quantity("20"));
        cpu.setBorrowingLimit(new Quantity("100"));
        FlavorQuotas fq = new FlavorQuotas();
        fq.setName(FLAVOR);
        fq.setResources(List.of(cpu));
        ResourceGroup rg = new ResourceGroup();
        rg.setCoveredResources(List.of("cpu"));
        rg.setFlavors(List.of(fq));
        ClusterQueuePreemption p = new ClusterQueuePreemption();
        p.setReclaimWithinCohort(ReclaimWithinCohort.Any);
        p.setWithinClusterQueue(WithinClusterQueue.LowerPriority);
        ClusterQueueSpec spec = new ClusterQueueSpec();
        spec.setCohort(name.substring(name.indexOf("cohort-")));
        spec.setNamespaceSelector(new LabelSelector());
        spec.setResourceGroups(List.of(rg));
        spec.setPreemption(p);
        ClusterQueue cq = new ClusterQueue();
        cq.setMetadata(new ObjectMetaBuilder().withName(name).build());
        cq.setSpec(spec);
        return cq;
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
                    out.add(new Planned(workload(ns, s, set, i), s.className(), (i + 1) * s.intervalMillis(), s.runtimeMillis()));
                }
            }
        }
        out.sort(Comparator.comparingLong(Planned::createAtMillis));
        return out;
    }

    static Workload workload(String namespace, KueueBenchmark.Stream s, int set, int i) {
        Workload w = new Workload();
        w.setMetadata(new ObjectMetaBuilder().withName(String.format(Locale.ROOT, "%s-%d-%d-0", s.className(), set, i))
                .withNamespace(namespace)
                .addToLabels(KueueBenchmark.CLASS_LABEL, s.className())
                .addToLabels(KueueBenchmark.RUNNING_TIME_LABEL, Long.toString(s.runtimeMillis()))
                .build());
        PodSet ps = new PodSet();
        ps.setName("main");
        ps.setCount(1);
        ps.setTemplate(new PodTemplateSpecBuilder().withNewSpec()
                .withContainers(new ContainerBuilder().withName("c").withImage("pause").withNewResources()
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
