package dev.sluice.controller;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.ResourceFlavor;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;

/** The GKE multislice seed's queue objects under names of their own (other tests apply the seed as it is). */
final class DashboardSeed {

    private DashboardSeed() {
    }

    /** Creates flavor {prefix}-vlp-24, ClusterQueue {prefix}-cq and LocalQueue multislice-queue in the namespace. */
    static void queues(Cluster cluster, io.fabric8.kubernetes.client.KubernetesClient client, String namespace,
            String prefix) {
        cluster.namespace(namespace);
        for (HasMetadata loaded : cluster.load("/seeds/gke-multislice/kueue.yaml")) {
            String yaml = Serialization.asYaml(loaded);
            switch (loaded.getKind()) {
                case "ResourceFlavor" -> {
                    ResourceFlavor rf = Serialization.unmarshal(yaml, ResourceFlavor.class);
                    rf.getMetadata().setName(prefix + "-vlp-24");
                    client.resource(rf).create();
                }
                case "ClusterQueue" -> {
                    ClusterQueue cq = Serialization.unmarshal(yaml, ClusterQueue.class);
                    cq.getMetadata().setName(prefix + "-cq");
                    cq.getSpec().getResourceGroups().get(0).getFlavors().get(0).setName(prefix + "-vlp-24");
                    client.resource(cq).create();
                }
                default -> {
                    LocalQueue lq = Serialization.unmarshal(yaml, LocalQueue.class);
                    lq.getMetadata().setNamespace(namespace);
                    lq.getSpec().setClusterQueue(prefix + "-cq");
                    client.resource(lq).create();
                }
            }
        }
    }
}
