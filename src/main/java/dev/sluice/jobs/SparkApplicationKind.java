package dev.sluice.jobs;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@code sparkoperator.k8s.io/v1beta2} SparkApplication (kubeflow/spark-operator). It embeds no pod template:
 * the pod sets {@code driver} (1 pod) and {@code executor} ({@code spec.executor.instances}, Spark's default 2;
 * with {@code spec.dynamicAllocation.enabled}, {@code maxExecutors}) get a template built from the role's fields:
 * <ul>
 * <li>cpu request {@code coreRequest}, else {@code cores} (default 1); cpu limit {@code coreLimit};</li>
 * <li>memory request and limit as Spark computes them ({@link SparkMemory}); {@code gpu.name: gpu.quantity};</li>
 * <li>sidecars and init containers as written; nodeSelector = {@code spec.nodeSelector} overlaid by the role's
 *     (the operator adds the role's on top); the role's tolerations, affinity, labels, priorityClassName.</li>
 * </ul>
 * Held by the ack-kube-queue annotation {@code scheduling.x-k8s.io/suspend: "true"}, or by {@code spec.suspend}
 * where the operator has it (spark-operator 2.2+, kubeflow/spark-operator#2387); a new job is held by the
 * annotation unless it already carries {@code spec.suspend}. Starting writes the flavor into
 * {@code spec.driver} / {@code spec.executor} ({@code nodeSelector}, {@code tolerations}, {@code labels}).
 * No partial admission.
 */
public final class SparkApplicationKind implements JobKind {
    public static final String DRIVER = "driver";
    public static final String EXECUTOR = "executor";
    static final int DEFAULT_EXECUTORS = 2;
    private static final HoldStyle HOLD = new HoldStyle(List.of("spec"), true, true);
    private static final List<String> ROLES = List.of(DRIVER, EXECUTOR);

    @Override
    public String group() {
        return "sparkoperator.k8s.io";
    }

    @Override
    public String version() {
        return "v1beta2";
    }

    @Override
    public String kind() {
        return "SparkApplication";
    }

    @Override
    public String plural() {
        return "sparkapplications";
    }

    @Override
    public List<PodSetTemplate> podSets(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        Map<String, Object> spec = spec(job, ref);
        List<PodSetTemplate> out = new ArrayList<>();
        for (String role : ROLES) {
            PodTemplateSpec template = Models.podTemplate(template(spec, role, ref), ref, "spec." + role);
            try {
                PodDemand.of(template.getSpec());
            } catch (InvalidJobException e) {
                throw e.under(ref, "spec." + role);
            }
            out.add(new PodSetTemplate(role, DRIVER.equals(role) ? 1 : executors(spec, ref), null, template));
        }
        return List.copyOf(out);
    }

    @Override
    public boolean isSuspended(GenericKubernetesResource job) {
        return HOLD.isHeld(job);
    }

    @Override
    public void hold(GenericKubernetesResource job) {
        HOLD.hold(job);
    }

    @Override
    public void start(GenericKubernetesResource job, List<PodSetStart> starts) {
        String ref = Models.ref(job);
        Map<String, PodSetStart> byName = PodSetEdits.matchByName(ref, ROLES, starts, PodSetStart::podSet, "start");
        Map<String, Object> spec = spec(job, ref);
        Map<String, Object> appSelector = RawTree.object(spec, "nodeSelector", ref, "spec.nodeSelector");
        int executors = executors(spec, ref);
        for (String role : ROLES) {
            PodSetStart st = byName.get(role);
            Map<String, Object> roleSpec = RawTree.object(spec, role, ref, "spec." + role);
            PodSetEdits.checkSelector(role, effectiveSelector(appSelector, roleSpec, ref, role), st.nodeSelector());
            PodSetEdits.checkTolerations(ref, roleSpec, "spec." + role);
            PodSetEdits.checkMetadata(role, "labels", RawTree.object(roleSpec, "labels", ref, "spec." + role + ".labels"),
                    st.labels());
            if (!st.annotations().isEmpty()) {
                // a stop restores a role's labels, not its annotations: refused rather than left behind
                throw new StartConflictException(role, "", ref + ": pod set " + role + ": an admission check asks for"
                        + " pod annotations; a SparkApplication's roles cannot take them");
            }
            int full = DRIVER.equals(role) ? 1 : executors;
            if (st.count() != null && st.count() != full) {
                throw new IllegalArgumentException(ref + ": pod set " + role + " cannot start with " + st.count()
                        + " of " + full + " pods; this kind does not support partial admission");
            }
        }
        for (String role : ROLES) {
            PodSetStart st = byName.get(role);
            String path = "spec." + role;
            Map<String, Object> roleSpec = RawTree.objectOrCreate(spec, role, ref, path);
            PodSetEdits.addSelector(ref, roleSpec, path, st.nodeSelector());
            PodSetEdits.addTolerations(ref, roleSpec, path, st.tolerations());
            PodSetEdits.addMetadata(ref, roleSpec, path, "labels", st.labels());
            RawTree.objectOrCreate(roleSpec, "labels", ref, path + ".labels").put(WellKnown.POD_SET, role);
        }
        HOLD.release(job);
    }

    /**
     * Puts back the role's nodeSelector (without the entries {@code spec.nodeSelector} gives anyway),
     * tolerations and labels from the originals, removing a field the original did not have, and holds again.
     */
    @Override
    public void restore(GenericKubernetesResource job, List<PodSetTemplate> originals) {
        String ref = Models.ref(job);
        Map<String, PodSetTemplate> byName = PodSetEdits.matchByName(ref, ROLES, originals, PodSetTemplate::name,
                "restore");
        Map<String, Object> spec = spec(job, ref);
        Map<String, Object> appSelector = RawTree.object(spec, "nodeSelector", ref, "spec.nodeSelector");
        for (String role : ROLES) {
            PodTemplateSpec original = byName.get(role).template();
            Map<String, Object> roleSpec = RawTree.objectOrCreate(spec, role, ref, "spec." + role);
            Map<String, Object> selector = new LinkedHashMap<>();
            if (original.getSpec() != null && original.getSpec().getNodeSelector() != null) {
                original.getSpec().getNodeSelector().forEach((k, v) -> {
                    if (appSelector == null || !v.equals(appSelector.get(k))) {
                        selector.put(k, v);
                    }
                });
            }
            putOrRemove(roleSpec, "nodeSelector", selector.isEmpty() ? null : selector);
            List<?> tolerations = original.getSpec() == null ? null : original.getSpec().getTolerations();
            putOrRemove(roleSpec, "tolerations", tolerations == null || tolerations.isEmpty() ? null
                    : new ArrayList<Object>(tolerations.stream().map(Models::raw).toList()));
            Map<String, String> labels = original.getMetadata() == null ? null : original.getMetadata().getLabels();
            putOrRemove(roleSpec, "labels", labels == null || labels.isEmpty() ? null : new LinkedHashMap<>(labels));
        }
        HOLD.hold(job);
    }

    /** {@code status.applicationState.state} COMPLETED (succeeded), FAILED or SUBMISSION_FAILED. */
    @Override
    public Optional<JobFinish> finished(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        Map<String, Object> appState = RawTree.object(status(job, ref), "applicationState", ref,
                "status.applicationState");
        String state = RawTree.string(appState, "state", ref, "status.applicationState.state");
        if (!"COMPLETED".equals(state) && !"FAILED".equals(state) && !"SUBMISSION_FAILED".equals(state)) {
            return Optional.empty();
        }
        boolean succeeded = "COMPLETED".equals(state);
        String message = RawTree.string(appState, "errorMessage", ref, "status.applicationState.errorMessage");
        return Optional.of(new JobFinish(succeeded, state,
                message == null || message.isEmpty() ? ref + (succeeded ? " succeeded" : " failed") : message));
    }

    /** The driver or executors may have pods in every state but new, SUSPENDED and the terminal ones. */
    @Override
    public boolean isActive(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        String state = RawTree.string(RawTree.object(status(job, ref), "applicationState", ref,
                "status.applicationState"), "state", ref, "status.applicationState.state");
        return state != null && !state.isEmpty()
                && !Set.of("COMPLETED", "FAILED", "SUBMISSION_FAILED", "SUSPENDED").contains(state);
    }

    /**
     * The driver runs ({@code status.applicationState.state} RUNNING) and as many executors as asked for report RUNNING
     * or COMPLETED in {@code status.executorState}: {@code spec.executor.instances} (default 2), or under dynamic
     * allocation {@code spec.dynamicAllocation.minExecutors} (default 0). Kueue's rule: the application state turns
     * RUNNING as soon as the driver starts, even while executors cannot be scheduled.
     */
    @Override
    public boolean podsReady(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        Map<String, Object> status = status(job, ref);
        String state = RawTree.string(RawTree.object(status, "applicationState", ref, "status.applicationState"),
                "state", ref, "status.applicationState.state");
        if (!"RUNNING".equals(state)) {
            return false;
        }
        Map<String, Object> spec = RawTree.object(job.getAdditionalProperties(), "spec", ref, "spec");
        Map<String, Object> dynamic = RawTree.object(spec, "dynamicAllocation", ref, "spec.dynamicAllocation");
        int wanted;
        if (RawTree.flag(dynamic, "enabled", ref, "spec.dynamicAllocation.enabled")) {
            Integer min = RawTree.count(dynamic, "minExecutors", ref, "spec.dynamicAllocation.minExecutors");
            wanted = min == null ? 0 : min;
        } else {
            Integer instances = RawTree.count(RawTree.object(spec, EXECUTOR, ref, "spec.executor"), "instances", ref,
                    "spec.executor.instances");
            wanted = instances == null ? DEFAULT_EXECUTORS : instances;
        }
        Map<String, Object> executors = RawTree.object(status, "executorState", ref, "status.executorState");
        int ready = 0;
        if (executors != null) {
            for (Object v : executors.values()) {
                if ("RUNNING".equals(v) || "COMPLETED".equals(v)) {
                    ready++;
                }
            }
        }
        return ready >= wanted;
    }

    private static Map<String, Object> template(Map<String, Object> spec, String role, String ref) {
        String path = "spec." + role;
        Map<String, Object> roleSpec = RawTree.object(spec, role, ref, path);
        if (roleSpec == null) {
            throw new InvalidJobException(ref, path, "is missing",
                    "give the SparkApplication a " + role + " with cores and memory");
        }
        Map<String, Object> requests = new LinkedHashMap<>();
        Map<String, Object> limits = new LinkedHashMap<>();
        requests.put("cpu", cpuRequest(roleSpec, ref, path));
        String coreLimit = RawTree.string(roleSpec, "coreLimit", ref, path + ".coreLimit");
        if (coreLimit != null) {
            limits.put("cpu", coreLimit);
        }
        long memoryMiB = SparkMemory.podMiB(RawTree.string(roleSpec, "memory", ref, path + ".memory"),
                RawTree.string(roleSpec, "memoryOverhead", ref, path + ".memoryOverhead"),
                RawTree.string(spec, "memoryOverheadFactor", ref, "spec.memoryOverheadFactor"),
                RawTree.string(spec, "type", ref, "spec.type"), ref, path);
        requests.put("memory", memoryMiB + "Mi");
        limits.put("memory", memoryMiB + "Mi");
        Map<String, Object> gpu = RawTree.object(roleSpec, "gpu", ref, path + ".gpu");
        if (gpu != null) {
            String name = RawTree.string(gpu, "name", ref, path + ".gpu.name");
            if (name == null || name.isEmpty()) {
                throw new InvalidJobException(ref, path + ".gpu.name", "is missing",
                        "name the GPU resource, such as nvidia.com/gpu");
            }
            Integer quantity = RawTree.count(gpu, "quantity", ref, path + ".gpu.quantity");
            requests.put(name, String.valueOf(quantity == null ? 0 : quantity));
            limits.put(name, String.valueOf(quantity == null ? 0 : quantity));
        }
        Map<String, Object> main = new LinkedHashMap<>();
        main.put("name", "spark-kubernetes-" + role);
        String image = RawTree.string(roleSpec, "image", ref, path + ".image");
        main.put("image", image != null ? image : RawTree.string(spec, "image", ref, "spec.image"));
        main.put("resources", new LinkedHashMap<>(Map.of("requests", requests, "limits", limits)));
        List<Object> containers = new ArrayList<>();
        containers.add(main);
        List<Object> sidecars = RawTree.list(roleSpec, "sidecars", ref, path + ".sidecars");
        if (sidecars != null) {
            containers.addAll(sidecars);
        }
        Map<String, Object> podSpec = new LinkedHashMap<>();
        podSpec.put("containers", containers);
        copy(roleSpec, "initContainers", podSpec);
        Map<String, Object> selector = effectiveSelector(RawTree.object(spec, "nodeSelector", ref,
                "spec.nodeSelector"), roleSpec, ref, role);
        if (!selector.isEmpty()) {
            podSpec.put("nodeSelector", selector);
        }
        copy(roleSpec, "tolerations", podSpec);
        copy(roleSpec, "affinity", podSpec);
        copy(roleSpec, "priorityClassName", podSpec);
        Map<String, Object> template = new LinkedHashMap<>();
        Map<String, Object> labels = RawTree.object(roleSpec, "labels", ref, path + ".labels");
        if (labels != null && !labels.isEmpty()) {
            template.put("metadata", new LinkedHashMap<>(Map.of("labels", new LinkedHashMap<>(labels))));
        }
        template.put("spec", podSpec);
        return template;
    }

    /** {@code coreRequest}, else {@code cores} (a whole number, or a quantity such as "500m"), else 1. */
    private static String cpuRequest(Map<String, Object> roleSpec, String ref, String path) {
        String coreRequest = RawTree.string(roleSpec, "coreRequest", ref, path + ".coreRequest");
        if (coreRequest != null) {
            return coreRequest;
        }
        Object cores = roleSpec.get("cores");
        if (cores == null) {
            return "1";
        }
        if (cores instanceof String s) {
            return s;
        }
        if (cores instanceof Number n && new BigDecimal(n.toString()).signum() > 0) {
            return new BigDecimal(n.toString()).toPlainString();
        }
        throw new InvalidJobException(ref, path + ".cores", "must be a number of cores > 0, found "
                + RawTree.describe(cores), "set it to a whole number such as 1");
    }

    /** Pods per executor pod set: instances (Spark's default 2), or maxExecutors under dynamic allocation. */
    private static int executors(Map<String, Object> spec, String ref) {
        Map<String, Object> dynamic = RawTree.object(spec, "dynamicAllocation", ref, "spec.dynamicAllocation");
        if (RawTree.flag(dynamic, "enabled", ref, "spec.dynamicAllocation.enabled")) {
            Integer max = RawTree.count(dynamic, "maxExecutors", ref, "spec.dynamicAllocation.maxExecutors");
            if (max == null) {
                throw new InvalidJobException(ref, "spec.dynamicAllocation.maxExecutors",
                        "is missing while dynamic allocation is enabled",
                        "set maxExecutors: the queue reserves room for that many executors");
            }
            return max;
        }
        Integer instances = RawTree.count(RawTree.object(spec, EXECUTOR, ref, "spec.executor"), "instances", ref,
                "spec.executor.instances");
        return instances == null ? DEFAULT_EXECUTORS : instances;
    }

    private static Map<String, Object> effectiveSelector(Map<String, Object> app, Map<String, Object> roleSpec,
            String ref, String role) {
        Map<String, Object> selector = new LinkedHashMap<>();
        if (app != null) {
            selector.putAll(app);
        }
        Map<String, Object> own = RawTree.object(roleSpec, "nodeSelector", ref, "spec." + role + ".nodeSelector");
        if (own != null) {
            selector.putAll(own);
        }
        return selector;
    }

    private static void copy(Map<String, Object> from, String key, Map<String, Object> to) {
        if (from.get(key) != null) {
            to.put(key, Models.raw(Map.of("v", from.get(key))).get("v"));
        }
    }

    private static void putOrRemove(Map<String, Object> parent, String key, Object value) {
        if (value == null) {
            parent.remove(key);
        } else {
            parent.put(key, value);
        }
    }

    private static Map<String, Object> spec(GenericKubernetesResource job, String ref) {
        Map<String, Object> spec = RawTree.object(job.getAdditionalProperties(), "spec", ref, "spec");
        if (spec == null) {
            throw new InvalidJobException(ref, "spec", "is missing", "give the SparkApplication a spec");
        }
        return spec;
    }

    private static Map<String, Object> status(GenericKubernetesResource job, String ref) {
        return RawTree.object(job.getAdditionalProperties(), "status", ref, "status");
    }
}
