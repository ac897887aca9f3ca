package dev.sluice.controller.store;

import dev.sluice.jobs.BatchJobKind;
import dev.sluice.jobs.JobKind;
import dev.sluice.jobs.JobSetKind;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A benchmark, not a test: the heap one cached job costs in a job kind's informer store ({@link JobItemStore}), for a
 * batch/v1 Job and a JobSet, waiting (held) and running, as the API server answers them (the defaults it and the
 * JobSet webhook add, the labels the Job controller puts on the template, managedFields), each parsed from its own
 * JSON as the informer gets it. Fills a store with N of one shape and prints the live heap after a full GC against the
 * empty store, for two sizes, then the time a reader of the templates takes (the pod sets read from a cached job):
 *
 * <pre>java -XX:+UseSerialGC -cp target/test-classes:target/classes:$(cat target/test-classpath.txt) \
 *     dev.sluice.controller.store.JobCacheCost [2000 8000]</pre>
 *
 * (put another build's target/classes first on the class path to measure it). See bench/RESULTS.md.
 */
public final class JobCacheCost {

    private static final String JOB = """
            {"apiVersion": "batch/v1", "kind": "Job",
             "metadata": {"name": "job-%1$d", "namespace": "ns-%2$d", "uid": "%3$s", "resourceVersion": "%4$d",
               "generation": %6$d, "creationTimestamp": "2025-01-02T03:%5$sZ",
               "labels": {"kueue.x-k8s.io/queue-name": "lq-%2$d"},
               "managedFields": [{"manager": "kubectl-create", "operation": "Update", "apiVersion": "batch/v1",
                 "time": "2025-01-02T03:%5$sZ", "fieldsType": "FieldsV1", "fieldsV1": {"f:spec": {"f:suspend": {}}}}]},
             "spec": {"parallelism": 1, "completions": 1, "backoffLimit": 6, "completionMode": "NonIndexed",
               "manualSelector": false, "podReplacementPolicy": "TerminatingOrFailed", "suspend": %7$s,
               "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": "%3$s"}},
               "template": {"metadata": {"labels": {"batch.kubernetes.io/controller-uid": "%3$s",
                   "batch.kubernetes.io/job-name": "job-%1$d", "controller-uid": "%3$s", "job-name": "job-%1$d"%8$s}},
                 "spec": {"containers": [{"name": "main", "image": "registry.k8s.io/e2e-test-images/agnhost:2.53",
                     "args": ["entrypoint-tester", "hello", "world"],
                     "resources": {"requests": {"cpu": "1", "memory": "200Mi"}},
                     "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File",
                     "imagePullPolicy": "IfNotPresent"}],
                   "restartPolicy": "Never", "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst",
                   "securityContext": {}, "schedulerName": "default-scheduler"%9$s}}},
             "status": %10$s}
            """;

    private static final String JOB_HELD = """
            {"conditions": [{"type": "Suspended", "status": "True", "reason": "JobSuspended", "message": "Job suspended",
               "lastProbeTime": "2025-01-02T03:%1$sZ", "lastTransitionTime": "2025-01-02T03:%1$sZ"}]}""";

    private static final String JOB_RUNNING = """
            {"conditions": [{"type": "Suspended", "status": "False", "reason": "JobResumed", "message": "Job resumed",
               "lastProbeTime": "2025-01-02T04:%1$sZ", "lastTransitionTime": "2025-01-02T04:%1$sZ"}],
             "startTime": "2025-01-02T04:%1$sZ", "active": 1, "ready": 1, "terminating": 0,
             "uncountedTerminatedPods": {}}""";

    private static final String JOBSET = """
            {"apiVersion": "jobset.x-k8s.io/v1alpha2", "kind": "JobSet",
             "metadata": {"name": "jobset-%1$d", "namespace": "ns-%2$d", "uid": "%3$s", "resourceVersion": "%4$d",
               "generation": %6$d, "creationTimestamp": "2025-01-02T03:%5$sZ",
               "labels": {"kueue.x-k8s.io/queue-name": "lq-%2$d"},
               "annotations": {"alpha.jobset.sigs.k8s.io/exclusive-topology": "cloud.google.com/gke-nodepool"},
               "managedFields": [{"manager": "kubectl-create", "operation": "Update",
                 "apiVersion": "jobset.x-k8s.io/v1alpha2", "time": "2025-01-02T03:%5$sZ", "fieldsType": "FieldsV1",
                 "fieldsV1": {"f:spec": {"f:suspend": {}}}}]},
             "spec": {"suspend": %7$s, "failurePolicy": {"maxRestarts": 4, "restartStrategy": "Recreate"},
               "network": {"enableDNSHostnames": true, "publishNotReadyAddresses": true},
               "startupPolicy": {"startupPolicyOrder": "AnyOrder"}, "successPolicy": {"operator": "All"},
               "replicatedJobs": [{"name": "slice", "replicas": 1,
                 "template": {"metadata": {}, "spec": {"parallelism": 2, "completions": 2, "backoffLimit": 0,
                   "completionMode": "Indexed",
                   "template": {"metadata": {%8$s}, "spec": {"hostNetwork": true,
                     "dnsPolicy": "ClusterFirstWithHostNet", "restartPolicy": "OnFailure",
                     "nodeSelector": {"cloud.google.com/gke-tpu-accelerator": "tpu-v5-lite-podslice",
                       "cloud.google.com/gke-tpu-topology": "2x4"%9$s},
                     "priorityClassName": "low-priority",
                     "containers": [{"name": "jax-tpu", "image": "python:3.8",
                       "ports": [{"containerPort": 8471, "protocol": "TCP"}, {"containerPort": 8080, "protocol": "TCP"}],
                       "securityContext": {"privileged": true}, "command": ["bash", "-c", "sleep 60\\n"],
                       "resources": {"limits": {"google.com/tpu": "4"}, "requests": {"google.com/tpu": "4"}}}]}}}}}]},
             "status": %10$s}
            """;

    private static final String JOBSET_HELD = """
            {"conditions": [{"type": "Suspended", "status": "True", "reason": "SuspendedJobs",
               "message": "jobset is suspended", "lastTransitionTime": "2025-01-02T03:%1$sZ"}],
             "replicatedJobsStatus": [{"name": "slice", "ready": 0, "succeeded": 0, "failed": 0, "active": 0,
               "suspended": 1}], "terminalState": ""}""";

    private static final String JOBSET_RUNNING = """
            {"conditions": [{"type": "Suspended", "status": "False", "reason": "ResumeJobs",
               "message": "jobset is resumed", "lastTransitionTime": "2025-01-02T04:%1$sZ"}],
             "replicatedJobsStatus": [{"name": "slice", "ready": 1, "succeeded": 0, "failed": 0, "active": 1,
               "suspended": 0}], "terminalState": ""}""";

    private JobCacheCost() {
    }

    /** The shapes measured. */
    enum Shape {
        jobHeld, jobRunning, jobSetHeld, jobSetRunning;

        boolean running() {
            return this == jobRunning || this == jobSetRunning;
        }

        JobKind kind() {
            return this == jobHeld || this == jobRunning ? new BatchJobKind() : new JobSetKind();
        }
    }

    /** Job or JobSet number {@code i} in the given shape, parsed from its own JSON. */
    static GenericKubernetesResource job(int i, Shape shape) {
        int ns = i % 50;
        String time = "%02d:%02d".formatted((i / 60) % 60, i % 60);
        String uid = "0b5e" + Integer.toHexString(i * 7919) + "-5d1e-4c7a-9f0e-" + (100000 + i);
        boolean running = shape.running();
        String json;
        if (shape == Shape.jobHeld || shape == Shape.jobRunning) {
            json = JOB.formatted(i, ns, uid, 1000 + i, time, running ? 2 : 1, !running,
                    running ? ", \"kueue.x-k8s.io/podset\": \"main\"" : "",
                    running ? ", \"nodeSelector\": {\"cloud.google.com/machine-family\": \"n2\"}" : "",
                    (running ? JOB_RUNNING : JOB_HELD).formatted(time));
        } else {
            json = JOBSET.formatted(i, ns, uid, 1000 + i, time, running ? 2 : 1, !running,
                    running ? "\"labels\": {\"kueue.x-k8s.io/podset\": \"slice\"}" : "",
                    running ? ", \"cloud.google.com/gke-nodepool\": \"tpu-pool\"" : "",
                    (running ? JOBSET_RUNNING : JOBSET_HELD).formatted(time));
        }
        return Serialization.unmarshal(json, GenericKubernetesResource.class);
    }

    public static void main(String[] args) throws Exception {
        int small = args.length > 0 ? Integer.parseInt(args[0]) : 2_000;
        int large = args.length > 1 ? Integer.parseInt(args[1]) : 8_000;
        for (Shape shape : Shape.values()) {
            job(0, shape); // load the classes and Jackson's serializers before the first measurement
        }
        long empty = WorkloadCacheCost.liveHeap();
        for (Shape shape : Shape.values()) {
            long[] used = new long[2];
            int[] sizes = { small, large };
            for (int k = 0; k < 2; k++) {
                used[k] = filled(sizes[k], shape) - empty;
            }
            System.out.printf(Locale.ROOT, "%s: %d cached %.1f MiB, %d cached %.1f MiB; %d bytes per job%n",
                    shape, small, used[0] / 1048576.0, large, used[1] / 1048576.0, (used[1] - used[0]) / (large - small));
        }
        for (Shape shape : Shape.values()) {
            double[] put = putMicros(shape);
            System.out.printf(Locale.ROOT, "%s: pod sets read from the cached job in %.1f us; put new %.1f us, put "
                    + "again (templates unchanged) %.1f us%n", shape, readMicros(shape), put[0], put[1]);
        }
    }

    /** The live heap with a store of n jobs (the store is garbage once this returns). */
    private static long filled(int n, Shape shape) {
        JobItemStore store = new JobItemStore(shape.kind());
        for (int i = 0; i < n; i++) {
            GenericKubernetesResource job = job(i, shape);
            store.put(job.getMetadata().getNamespace() + "/" + job.getMetadata().getName(), job);
        }
        long live = WorkloadCacheCost.liveHeap();
        if (store.size() != n) {
            throw new IllegalStateException("the cache lost jobs");
        }
        return live;
    }

    /** Microseconds for a reader of the templates: the kind's pod sets of one cached job (what outOfDate reads). */
    private static double readMicros(Shape shape) {
        JobItemStore store = new JobItemStore(shape.kind());
        GenericKubernetesResource job = job(1, shape);
        store.put("k", job);
        GenericKubernetesResource cached = store.get("k");
        JobKind kind = shape.kind();
        int rounds = 20_000;
        long sink = 0;
        for (int warm = 0; warm < 3; warm++) {
            for (int i = 0; i < rounds; i++) {
                sink += kind.podSets(cached).size();
            }
        }
        long start = System.nanoTime();
        for (int i = 0; i < rounds; i++) {
            sink += kind.podSets(cached).size();
        }
        double micros = (System.nanoTime() - start) / 1e3 / rounds;
        return sink > 0 ? micros : -1;
    }

    /**
     * Microseconds the store takes to put one job (stripping, trimming or packing; parsing excluded): new, and again as
     * the next watch event of each (templates unchanged, as in a status update).
     */
    private static double[] putMicros(Shape shape) {
        int n = 20_000;
        JobItemStore warm = new JobItemStore(shape.kind());
        for (int i = 0; i < n / 2; i++) {
            warm.put("w" + i, job(i, shape));
            warm.put("w" + i, job(i, shape));
        }
        List<GenericKubernetesResource> jobs = new ArrayList<>(n);
        List<GenericKubernetesResource> again = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            jobs.add(job(i, shape));
            again.add(job(i, shape));
        }
        JobItemStore store = new JobItemStore(shape.kind());
        long start = System.nanoTime();
        for (int i = 0; i < n; i++) {
            store.put("k" + i, jobs.get(i));
        }
        long added = System.nanoTime();
        for (int i = 0; i < n; i++) {
            store.put("k" + i, again.get(i));
        }
        long updated = System.nanoTime();
        return new double[] { (added - start) / 1e3 / n, (updated - added) / 1e3 / n };
    }
}
