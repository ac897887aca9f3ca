package dev.sluice.jobs;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Quantity;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * {@code argoproj.io/v1alpha1} Workflow, queued as a whole, never step by step: one pod set {@code main}, count 1,
 * whose demand is the annotation {@code kube-queue/min-resources} (a ResourceList in YAML or JSON; Argo states no
 * pod count up front). Its template also carries the workflow-level nodeSelector, tolerations, affinity and
 * podPriorityClassName. Held by {@code spec.suspend}; the ack-kube-queue way adds a template named
 * {@code kube-queue-suspend}.
 * <p>
 * Starting adds the flavor to {@code spec.nodeSelector} and {@code spec.tolerations}, which Argo gives every pod
 * of the workflow, and also to each inline template that sets its own non-empty nodeSelector (resp. tolerations),
 * because Argo then uses the template's instead of the workflow's. The templates' originals are recorded in the
 * annotation {@code sluice.dev/template-scheduling} so that {@link #restore} puts them back exactly. Note that
 * suspending a running workflow stops new steps, not the pods already running ({@link #isActive} tells).
 */
public final class ArgoWorkflowKind implements JobKind {
    public static final String POD_SET = "main";
    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<LinkedHashMap<String, Object>> MAP = new TypeReference<>() {
    };
    private static final String FIX = "annotate the Workflow with " + WellKnown.ACK_MIN_RESOURCES
            + ", what the whole workflow needs at once, as a ResourceList such as \"cpu: 5\\nmemory: 5G\"";

    @Override
    public String group() {
        return "argoproj.io";
    }

    @Override
    public String version() {
        return "v1alpha1";
    }

    @Override
    public String kind() {
        return "Workflow";
    }

    @Override
    public String plural() {
        return "workflows";
    }

    /** @throws InvalidJobException the annotation {@code kube-queue/min-resources} is missing or does not parse */
    @Override
    public List<PodSetTemplate> podSets(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        Map<String, Object> requests = minResources(job, ref);
        Map<String, Object> spec = spec(job);
        Map<String, Object> podSpec = new LinkedHashMap<>();
        podSpec.put("containers", List.of(Map.of("name", POD_SET, "resources", Map.of("requests", requests))));
        copy(spec, "nodeSelector", podSpec, "nodeSelector");
        copy(spec, "tolerations", podSpec, "tolerations");
        copy(spec, "affinity", podSpec, "affinity");
        copy(spec, "podPriorityClassName", podSpec, "priorityClassName");
        PodTemplateSpec template = Models.podTemplate(new LinkedHashMap<>(Map.of("spec", podSpec)), ref, "spec");
        return List.of(new PodSetTemplate(POD_SET, 1, null, template));
    }

    @Override
    public boolean isSuspended(GenericKubernetesResource job) {
        return HoldStyle.SPEC_SUSPEND.isHeld(job);
    }

    @Override
    public void hold(GenericKubernetesResource job) {
        HoldStyle.SPEC_SUSPEND.hold(job);
    }

    /** Held ({@code spec.suspend}), no queue label, and a template named {@code kube-queue-suspend}. */
    @Override
    public boolean heldTheAckWay(GenericKubernetesResource job) {
        if (!JobKind.super.heldTheAckWay(job)) {
            return false;
        }
        List<Object> templates = templates(job, Models.ref(job));
        return templates.stream().anyMatch(t -> t instanceof Map<?, ?> m
                && WellKnown.ACK_SUSPEND_TEMPLATE.equals(m.get("name")));
    }

    @Override
    public void start(GenericKubernetesResource job, List<PodSetStart> starts) {
        String ref = Models.ref(job);
        PodSetStart st = PodSetEdits.matchByName(ref, List.of(POD_SET), starts, PodSetStart::podSet, "start")
                .get(POD_SET);
        if (st.count() != null && st.count() != 1) {
            throw new IllegalArgumentException(ref + ": pod set main cannot start with " + st.count()
                    + " pods; a Workflow is queued as a whole (1)");
        }
        if (!st.labels().isEmpty() || !st.annotations().isEmpty()) {
            // its templates' metadata is not restored on a stop: refused rather than left behind
            throw new StartConflictException(POD_SET, "", ref + ": an admission check asks for pod labels or annotations;"
                    + " a Workflow cannot take them: remove the check from the ClusterQueue of Workflows");
        }
        Map<String, Object> spec = RawTree.objectOrCreate(job.getAdditionalProperties(), "spec", ref, "spec");
        PodSetEdits.checkSelector(POD_SET, RawTree.object(spec, "nodeSelector", ref, "spec.nodeSelector"),
                st.nodeSelector());
        PodSetEdits.checkTolerations(ref, spec, "spec");
        List<Object> templates = templates(job, ref);
        Map<String, Object> record = new TreeMap<>();
        for (int i = 0; i < templates.size(); i++) {
            String path = "spec.templates[" + i + "]";
            Map<String, Object> t = RawTree.element(templates, i, ref, path);
            Map<String, Object> selector = RawTree.object(t, "nodeSelector", ref, path + ".nodeSelector");
            PodSetEdits.checkSelector(POD_SET, selector, st.nodeSelector());
            PodSetEdits.checkTolerations(ref, t, path);
            Map<String, Object> original = new LinkedHashMap<>();
            if (selector != null && !selector.isEmpty() && !st.nodeSelector().isEmpty()) {
                original.put("nodeSelector", Models.raw(selector));
            }
            List<Object> tolerations = RawTree.list(t, "tolerations", ref, path + ".tolerations");
            if (tolerations != null && !tolerations.isEmpty() && !st.tolerations().isEmpty()) {
                original.put("tolerations", Models.raw(Map.of("v", tolerations)).get("v"));
            }
            if (!original.isEmpty()) {
                String name = RawTree.string(t, "name", ref, path + ".name");
                if (name == null || record.containsKey(name)) {
                    throw new InvalidJobException(ref, path + ".name", name == null ? "is missing"
                            : "\"" + name + "\" is used twice", "give each template its own name");
                }
                record.put(name, original);
            }
        }
        for (int i = 0; i < templates.size(); i++) {
            String path = "spec.templates[" + i + "]";
            Map<String, Object> t = RawTree.element(templates, i, ref, path);
            Object original = record.get(RawTree.string(t, "name", ref, path + ".name"));
            if (original instanceof Map<?, ?> o && o.containsKey("nodeSelector")) {
                PodSetEdits.addSelector(ref, t, path, st.nodeSelector());
            }
            if (original instanceof Map<?, ?> o && o.containsKey("tolerations")) {
                PodSetEdits.addTolerations(ref, t, path, st.tolerations());
            }
        }
        PodSetEdits.addSelector(ref, spec, "spec", st.nodeSelector());
        PodSetEdits.addTolerations(ref, spec, "spec", st.tolerations());
        annotations(job).remove(WellKnown.ARGO_TEMPLATE_SCHEDULING);
        if (!record.isEmpty()) {
            try {
                annotations(job).put(WellKnown.ARGO_TEMPLATE_SCHEDULING, JSON.writeValueAsString(record));
            } catch (JsonProcessingException e) {
                throw new IllegalStateException(e);
            }
        }
        HoldStyle.SPEC_SUSPEND.release(job);
    }

    /**
     * Puts back {@code spec.nodeSelector} and {@code spec.tolerations} from the original pod set (removing them
     * when it had none), the templates' own from the annotation written by {@link #start}, and holds again.
     */
    @Override
    public void restore(GenericKubernetesResource job, List<PodSetTemplate> originals) {
        String ref = Models.ref(job);
        PodTemplateSpec original = PodSetEdits.matchByName(ref, List.of(POD_SET), originals, PodSetTemplate::name,
                "restore").get(POD_SET).template();
        Map<String, Object> recorded = recordedTemplates(job, ref);
        Map<String, Object> spec = RawTree.objectOrCreate(job.getAdditionalProperties(), "spec", ref, "spec");
        Map<String, String> selector = original.getSpec() == null ? null : original.getSpec().getNodeSelector();
        putOrRemove(spec, "nodeSelector", selector == null || selector.isEmpty() ? null
                : new LinkedHashMap<String, Object>(selector));
        List<?> tolerations = original.getSpec() == null ? null : original.getSpec().getTolerations();
        putOrRemove(spec, "tolerations", tolerations == null || tolerations.isEmpty() ? null
                : new ArrayList<Object>(tolerations.stream().map(Models::raw).toList()));
        List<Object> templates = templates(job, ref);
        for (int i = 0; i < templates.size(); i++) {
            String path = "spec.templates[" + i + "]";
            Map<String, Object> t = RawTree.element(templates, i, ref, path);
            Map<String, Object> was = RawTree.object(recorded, RawTree.string(t, "name", ref, path + ".name"), ref,
                    "metadata.annotations[" + WellKnown.ARGO_TEMPLATE_SCHEDULING + "]");
            if (was != null) {
                for (String key : List.of("nodeSelector", "tolerations")) {
                    if (was.containsKey(key)) {
                        t.put(key, was.get(key));
                    }
                }
            }
        }
        annotations(job).remove(WellKnown.ARGO_TEMPLATE_SCHEDULING);
        hold(job);
    }

    /** {@code status.phase} Succeeded, Failed or Error. */
    @Override
    public Optional<JobFinish> finished(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        Map<String, Object> status = RawTree.object(job.getAdditionalProperties(), "status", ref, "status");
        String phase = RawTree.string(status, "phase", ref, "status.phase");
        if (phase == null || !List.of("Succeeded", "Failed", "Error").contains(phase)) {
            return Optional.empty();
        }
        boolean succeeded = "Succeeded".equals(phase);
        String message = RawTree.string(status, "message", ref, "status.message");
        return Optional.of(new JobFinish(succeeded, phase,
                message == null || message.isEmpty() ? ref + (succeeded ? " succeeded" : " failed") : message));
    }

    /** Any node of {@code status.nodes} of type Pod that is Pending or Running. */
    @Override
    public boolean isActive(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        Map<String, Object> status = RawTree.object(job.getAdditionalProperties(), "status", ref, "status");
        Map<String, Object> nodes = RawTree.object(status, "nodes", ref, "status.nodes");
        if (nodes == null) {
            return false;
        }
        for (String id : nodes.keySet()) {
            String path = "status.nodes." + id;
            Map<String, Object> node = RawTree.object(nodes, id, ref, path);
            String phase = RawTree.string(node, "phase", ref, path + ".phase");
            if ("Pod".equals(RawTree.string(node, "type", ref, path + ".type"))
                    && ("Pending".equals(phase) || "Running".equals(phase))) {
                return true;
            }
        }
        return false;
    }

    /**
     * Sluice's rule (Kueue has no Workflow integration): {@code status.phase} is Running and at least one node of
     * {@code status.nodes} of type Pod is Running or Succeeded. A Workflow is queued as a whole and runs its steps one
     * after another, so "all pods ready" never holds at one moment; what waitForPodsReady guards against, quota held by
     * a workflow none of whose pods can start, is exactly "no pod node has started".
     */
    @Override
    public boolean podsReady(GenericKubernetesResource job) {
        String ref = Models.ref(job);
        Map<String, Object> status = RawTree.object(job.getAdditionalProperties(), "status", ref, "status");
        if (!"Running".equals(RawTree.string(status, "phase", ref, "status.phase"))) {
            return false;
        }
        Map<String, Object> nodes = RawTree.object(status, "nodes", ref, "status.nodes");
        if (nodes == null) {
            return false;
        }
        for (String id : nodes.keySet()) {
            String path = "status.nodes." + id;
            Map<String, Object> node = RawTree.object(nodes, id, ref, path);
            String phase = RawTree.string(node, "phase", ref, path + ".phase");
            if ("Pod".equals(RawTree.string(node, "type", ref, path + ".type"))
                    && ("Running".equals(phase) || "Succeeded".equals(phase))) {
                return true;
            }
        }
        return false;
    }

    /** The annotation as a ResourceList of valid, non-negative quantities. */
    private static Map<String, Object> minResources(GenericKubernetesResource job, String ref) {
        String field = "metadata.annotations[" + WellKnown.ACK_MIN_RESOURCES + "]";
        ObjectMeta meta = job.getMetadata();
        String text = meta == null || meta.getAnnotations() == null ? null
                : meta.getAnnotations().get(WellKnown.ACK_MIN_RESOURCES);
        if (text == null || text.isBlank()) {
            throw new InvalidJobException(ref, field, "is missing, so the queue cannot tell what the workflow needs",
                    FIX);
        }
        Map<String, Object> parsed;
        try {
            parsed = YAML.readValue(text, MAP);
        } catch (JsonProcessingException | ClassCastException e) {
            parsed = null;
        }
        if (parsed == null || parsed.isEmpty()) {
            throw new InvalidJobException(ref, field, "\"" + text.strip() + "\" is not a ResourceList", FIX);
        }
        Map<String, Object> requests = new LinkedHashMap<>();
        for (Map.Entry<String, Object> e : parsed.entrySet()) {
            Object v = e.getValue();
            if (!(v instanceof String || v instanceof Number)) {
                throw new InvalidJobException(ref, field + "." + e.getKey(), "must be a quantity, found "
                        + RawTree.describe(v), FIX);
            }
            String quantity = String.valueOf(v).strip();
            try {
                PodDemand.amount(new Quantity(quantity), e.getKey());
            } catch (InvalidJobException | IllegalArgumentException bad) {
                throw new InvalidJobException(ref, field + "." + e.getKey(), "\"" + quantity
                        + "\" is not a quantity >= 0", FIX);
            }
            requests.put(e.getKey(), quantity);
        }
        return requests;
    }

    private static Map<String, Object> recordedTemplates(GenericKubernetesResource job, String ref) {
        ObjectMeta meta = job.getMetadata();
        String text = meta == null || meta.getAnnotations() == null ? null
                : meta.getAnnotations().get(WellKnown.ARGO_TEMPLATE_SCHEDULING);
        if (text == null) {
            return null;
        }
        try {
            return JSON.readValue(text, MAP);
        } catch (JsonProcessingException e) {
            throw new InvalidJobException(ref, "metadata.annotations[" + WellKnown.ARGO_TEMPLATE_SCHEDULING + "]",
                    "is not the JSON Sluice wrote", "do not edit this annotation; remove it to keep the templates");
        }
    }

    private static List<Object> templates(GenericKubernetesResource job, String ref) {
        List<Object> templates = RawTree.list(spec(job), "templates", ref, "spec.templates");
        return templates == null ? List.of() : templates;
    }

    private static Map<String, Object> spec(GenericKubernetesResource job) {
        return RawTree.object(job.getAdditionalProperties(), "spec", Models.ref(job), "spec");
    }

    private static void copy(Map<String, Object> from, String key, Map<String, Object> to, String as) {
        if (from != null && from.get(key) != null) {
            to.put(as, Models.raw(Map.of("v", from.get(key))).get("v"));
        }
    }

    private static void putOrRemove(Map<String, Object> parent, String key, Object value) {
        if (value == null) {
            parent.remove(key);
        } else {
            parent.put(key, value);
        }
    }

    private static Map<String, String> annotations(GenericKubernetesResource job) {
        if (job.getMetadata() == null) {
            job.setMetadata(new ObjectMeta());
        }
        if (job.getMetadata().getAnnotations() == null) {
            job.getMetadata().setAnnotations(new LinkedHashMap<>());
        }
        return job.getMetadata().getAnnotations();
    }
}
