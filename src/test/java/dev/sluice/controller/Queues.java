package dev.sluice.controller;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Workload;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.utils.Serialization;

/** Small queue objects for tests, written as the YAML a user would apply. */
public final class Queues {

    private Queues() {
    }

    public static ResourceFlavor flavor(String name, String nodeLabelsYaml) {
        return yaml(ResourceFlavor.class, """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ResourceFlavor
                metadata: {name: %s}
                spec: {nodeLabels: %s}
                """.formatted(name, nodeLabelsYaml));
    }

    /** One flavor with cpu and memory quota; namespaceSelector as given ({} selects all). */
    public static ClusterQueue cpuQueue(String name, String flavor, String cpu, String namespaceSelector) {
        return yaml(ClusterQueue.class, """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: ClusterQueue
                metadata: {name: %s}
                spec:
                  namespaceSelector: %s
                  resourceGroups:
                  - coveredResources: [cpu, memory]
                    flavors:
                    - name: %s
                      resources:
                      - {name: cpu, nominalQuota: "%s"}
                      - {name: memory, nominalQuota: 10Gi}
                """.formatted(name, namespaceSelector, flavor, cpu));
    }

    public static LocalQueue localQueue(String namespace, String name, String clusterQueue) {
        return yaml(LocalQueue.class, """
                apiVersion: kueue.x-k8s.io/v1beta1
                kind: LocalQueue
                metadata: {name: %s, namespace: %s}
                spec: {clusterQueue: %s}
                """.formatted(name, namespace, clusterQueue));
    }

    /** A Workload of its own (no job): one pod set of one pod asking for {@code cpu}, in LocalQueue {@code queue}. */
    static Workload bareWorkload(String namespace, String name, String queue, String cpu) {
        return yaml(Workload.class, """
                apiVersion: kueue.x-k8s.io/v1beta2
                kind: Workload
                metadata: {name: %s, namespace: %s}
                spec:
                  queueName: %s
                  podSets:
                  - name: main
                    count: 1
                    template:
                      spec:
                        restartPolicy: Never
                        containers:
                        - {name: c, image: busybox, resources: {requests: {cpu: "%s"}}}
                """.formatted(name, namespace, queue, cpu));
    }

    public static <T extends HasMetadata> T yaml(Class<T> type, String yaml) {
        return Serialization.unmarshal(yaml, type);
    }
}
