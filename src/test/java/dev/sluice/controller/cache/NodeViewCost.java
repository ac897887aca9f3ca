package dev.sluice.controller.cache;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A benchmark, not a test: the heap a bound pod not placed by TAS costs the node view (its store's skeleton and its
 * entry in {@link NonTasUsage}) against keeping the Pod as parsed, each pod parsed from its own JSON as the informer
 * gets it:
 *
 * <pre>java -XX:+UseSerialGC -cp target/test-classes:target/classes:$(cat target/test-classpath.txt) \
 *     dev.sluice.controller.cache.NodeViewCost [20000]</pre>
 */
public final class NodeViewCost {

    private static final String POD = """
            {"apiVersion": "v1", "kind": "Pod",
             "metadata": {"name": "job-%1$d-abcde", "namespace": "ns-%2$d", "uid": "0000-%1$d", "resourceVersion": "%1$d",
               "creationTimestamp": "2025-01-02T03:04:05Z", "generateName": "job-%1$d-",
               "labels": {"batch.kubernetes.io/controller-uid": "c-%1$d", "batch.kubernetes.io/job-name": "job-%1$d",
                 "controller-uid": "c-%1$d", "job-name": "job-%1$d"},
               "ownerReferences": [{"apiVersion": "batch/v1", "kind": "Job", "name": "job-%1$d", "uid": "c-%1$d",
                 "controller": true, "blockOwnerDeletion": true}]},
             "spec": {"nodeName": "node-%3$d", "restartPolicy": "Never", "schedulerName": "default-scheduler",
               "serviceAccountName": "default", "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst",
               "containers": [{"name": "main", "image": "registry.k8s.io/e2e-test-images/agnhost:2.53",
                 "args": ["entrypoint-tester", "hello"], "resources": {"requests": {"cpu": "1", "memory": "200Mi"}},
                 "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
                 "imagePullPolicy": "IfNotPresent", "volumeMounts": [{"name": "kube-api-access", "readOnly": true,
                   "mountPath": "/var/run/secrets/kubernetes.io/serviceaccount"}]}],
               "volumes": [{"name": "kube-api-access", "projected": {"defaultMode": 420, "sources": [
                 {"serviceAccountToken": {"expirationSeconds": 3607, "path": "token"}},
                 {"configMap": {"name": "kube-root-ca.crt", "items": [{"key": "ca.crt", "path": "ca.crt"}]}}]}}],
               "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute",
                 "tolerationSeconds": 300}]},
             "status": {"phase": "Running", "hostIP": "10.0.0.%4$d", "podIP": "10.1.%4$d.%4$d",
               "startTime": "2025-01-02T03:04:06Z", "qosClass": "Burstable",
               "conditions": [{"type": "Ready", "status": "True", "lastTransitionTime": "2025-01-02T03:04:09Z"},
                 {"type": "PodScheduled", "status": "True", "lastTransitionTime": "2025-01-02T03:04:05Z"}],
               "containerStatuses": [{"name": "main", "ready": true, "restartCount": 0, "started": true,
                 "image": "registry.k8s.io/e2e-test-images/agnhost:2.53", "imageID": "sha256:%1$d",
                 "containerID": "containerd://%1$d", "state": {"running": {"startedAt": "2025-01-02T03:04:08Z"}}}]}}
            """;

    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 20000;
        long empty = live();
        List<Pod> full = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            full.add(parse(i));
        }
        long fullBytes = live() - empty;
        full = null;
        long empty2 = live();
        List<Pod> skeletons = new ArrayList<>();
        NonTasUsage usage = new NonTasUsage();
        for (int i = 0; i < n; i++) {
            Pod p = parse(i);
            usage.update(p.getMetadata().getNamespace() + "/" + p.getMetadata().getName(), p);
            skeletons.add(NodeView.skeleton(p));
        }
        long leanBytes = live() - empty2;
        System.out.printf(Locale.ROOT, "%d pods: as parsed %d bytes each; node view (skeleton + usage) %d bytes each%n",
                n, fullBytes / n, leanBytes / n);
        if (skeletons.size() + usage.pods() < 0) {
            System.out.println(); // keeps both alive until measured
        }
    }

    private static Pod parse(int i) {
        return Serialization.unmarshal(POD.formatted(i, i % 50, i % 1000, i % 250), Pod.class);
    }

    private static long live() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        Runtime r = Runtime.getRuntime();
        return r.totalMemory() - r.freeMemory();
    }
}
