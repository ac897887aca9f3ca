package dev.sluice.sim;

import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.Kueue;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.bridge.EngineWorkloads;
import dev.sluice.bridge.InvalidObjectException;
import dev.sluice.bridge.JobWorkloads;
import dev.sluice.bridge.PriorityClasses;
import dev.sluice.bridge.QueueObjects;
import dev.sluice.engine.ClusterQueueSpec;
import dev.sluice.engine.FlavorQuotas;
import dev.sluice.engine.FlavorSpec;
import dev.sluice.engine.LocalQueueSpec;
import dev.sluice.engine.ResourceGroupSpec;
import dev.sluice.engine.WorkloadSpec;
import dev.sluice.jobs.InvalidJobException;
import dev.sluice.jobs.JobKind;
import dev.sluice.jobs.WellKnown;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMeta;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Collects input objects (from manifests or a generator), then checks references and builds the {@link Scenario}.
 * Jobs become Workloads through the controller's own translation ({@link JobWorkloads}, {@link EngineWorkloads}).
 * Every problem is collected with its origin; {@link #build()} fails with all of them, so nothing is simulated.
 */
public final class ScenarioBuilder {

    /** The LocalQueue a job held the ack-kube-queue way without a queue label joins (as the controller does). */
    static final String ACK_DEFAULT_QUEUE = "default";

    private record Named<T>(T object, Origin origin) {
    }

    private record PendingJob(JobKind kind, GenericKubernetesResource job, Origin origin) {
    }

    private record PendingWorkload(Workload workload, Origin origin) {
    }

    private final long defaultDurationMillis;
    private final List<InputError> errors = new ArrayList<>();
    private final Map<String, Named<FlavorSpec>> flavors = new LinkedHashMap<>();
    private final Map<String, Named<ClusterQueueSpec>> clusterQueues = new LinkedHashMap<>();
    private final Map<String, Named<LocalQueueSpec>> localQueues = new LinkedHashMap<>();
    private final List<String> warnings = new ArrayList<>();
    private final Map<String, dev.sluice.api.v1beta2.Cohort> cohorts = new LinkedHashMap<>();
    private final Map<String, Map<String, String>> namespaces = new LinkedHashMap<>();
    private final Map<String, Integer> priorityClasses = new HashMap<>();
    private final Map<String, Integer> workloadPriorityClasses = new HashMap<>();
    private PriorityClasses.Named globalDefault;
    /** Jobs and bare Workloads in input order (their creation order). */
    private final List<Object> submissions = new ArrayList<>();
    private final Map<String, Origin> seen = new HashMap<>();
    /** Kind/name of the queue objects refused: their problems are reported, references to them are not. */
    private final java.util.Set<String> refused = new java.util.HashSet<>();
    private final Map<String, Integer> generatedNames = new HashMap<>();
    /** Topology objects by name, and the nodes of Node manifests and of {@code --nodes}, for TAS flavors. */
    private final Map<String, Named<dev.sluice.engine.tas.Topology>> topologies = new LinkedHashMap<>();
    private final List<dev.sluice.engine.tas.TasNode> nodes = new ArrayList<>();
    private final Map<String, ResourceFlavor> flavorObjects = new LinkedHashMap<>();
    private SyntheticNodes synthetic;
    private Origin syntheticOrigin;

    public ScenarioBuilder(long defaultDurationMillis) {
        this.defaultDurationMillis = defaultDurationMillis;
        namespaces.put("default", Map.of());
    }

    /** Input that is simulated as a cluster would treat it, but is probably not what was meant. */
    public List<String> warnings() {
        return List.copyOf(warnings);
    }

    public void error(InputError error) {
        errors.add(error);
    }

    public boolean hasErrors() {
        return !errors.isEmpty();
    }

    /**
     * An object of the input that is refused with these problems (as the API server would refuse it): nothing is
     * simulated, and references to it are not reported again as missing.
     */
    public void refuse(String kind, String name, List<InputError> problems) {
        errors.addAll(problems);
        refused.add(kind + "/" + name);
    }

    public void flavor(ResourceFlavor flavor, Origin origin) {
        if (unique("ResourceFlavor", null, flavor.getMetadata(), origin)) {
            flavors.put(flavor.getMetadata().getName(), new Named<>(QueueObjects.flavor(flavor), origin));
            flavorObjects.put(flavor.getMetadata().getName(), flavor);
        }
    }

    public void clusterQueue(ClusterQueue cq, Origin origin) {
        if (!unique("ClusterQueue", null, cq.getMetadata(), origin)) {
            return;
        }
        try {
            clusterQueues.put(cq.getMetadata().getName(), new Named<>(QueueObjects.clusterQueue(cq), origin));
        } catch (InvalidObjectException e) {
            refuse("ClusterQueue", cq.getMetadata().getName(), List.of(origin.error(e.field(), problemOf(e))));
        } catch (IllegalArgumentException e) {
            // the engine's own check of what it cannot take
            refuse("ClusterQueue", cq.getMetadata().getName(), List.of(origin.error("spec", e.getMessage())));
        }
    }

    public void localQueue(LocalQueue lq, Origin origin) {
        defaultNamespace(lq.getMetadata());
        if (!unique("LocalQueue", lq.getMetadata().getNamespace(), lq.getMetadata(), origin)) {
            return;
        }
        LocalQueueSpec spec;
        try {
            spec = QueueObjects.localQueue(lq);
        } catch (InvalidObjectException e) {
            errors.add(origin.error(e.field(), problemOf(e)));
            return;
        } catch (IllegalArgumentException e) {
            errors.add(origin.error("spec", e.getMessage()));
            return;
        }
        if (spec.clusterQueue() == null || spec.clusterQueue().isEmpty()) {
            errors.add(origin.error("spec.clusterQueue", "required; name the ClusterQueue this LocalQueue feeds"));
            return;
        }
        localQueues.put(spec.namespace() + "/" + spec.name(), new Named<>(spec, origin));
    }

    public void namespace(String name, Map<String, String> labels, Origin origin) {
        if (name == null || name.isEmpty()) {
            errors.add(origin.error("metadata.name", "required"));
            return;
        }
        namespaces.put(name, labels == null ? Map.of() : Map.copyOf(labels));
    }

    public void priorityClass(ObjectMeta meta, Integer value, Boolean isGlobalDefault, Origin origin) {
        if (!unique("PriorityClass", null, meta, origin)) {
            return;
        }
        if (value == null) {
            errors.add(origin.error("value", "required; give the priority as an integer"));
            return;
        }
        priorityClasses.put(meta.getName(), value);
        if (Boolean.TRUE.equals(isGlobalDefault)) {
            if (globalDefault != null) {
                errors.add(origin.error("globalDefault", "PriorityClass " + globalDefault.name()
                        + " is already the global default; only one may be"));
                return;
            }
            globalDefault = new PriorityClasses.Named(meta.getName(), value);
        }
    }

    public void workloadPriorityClass(ObjectMeta meta, Integer value, Origin origin) {
        if (!unique("WorkloadPriorityClass", null, meta, origin)) {
            return;
        }
        if (value == null) {
            errors.add(origin.error("value", "required; give the priority as an integer"));
            return;
        }
        workloadPriorityClasses.put(meta.getName(), value);
    }

    /** A Cohort: its parent, quota pool and weight (the simulation gives them to the engine's cohort tree). */
    public void cohort(dev.sluice.api.v1beta2.Cohort cohort, Origin origin) {
        if (!unique("Cohort", null, cohort.getMetadata(), origin)) {
            return;
        }
        try {
            dev.sluice.bridge.CohortObjects.cohort(cohort); // what the engine cannot take is named here, with its field
        } catch (InvalidObjectException | IllegalArgumentException e) {
            errors.add(e instanceof InvalidObjectException ioe ? origin.error(ioe.field(), problemOf(ioe))
                    : origin.error("spec", e.getMessage()));
            return;
        }
        cohorts.put(cohort.getMetadata().getName(), cohort);
    }

    public void job(JobKind kind, GenericKubernetesResource job, Origin origin) {
        ObjectMeta meta = job.getMetadata();
        defaultNamespace(meta);
        if (!unique(kind.kind(), meta.getNamespace(), meta, origin)) {
            return;
        }
        submissions.add(new PendingJob(kind, job, origin.named(kind.kind() + " " + meta.getNamespace() + "/" + meta.getName())));
    }

    public void workload(Workload workload, Origin origin) {
        ObjectMeta meta = workload.getMetadata();
        defaultNamespace(meta);
        if (!unique("Workload", meta.getNamespace(), meta, origin)) {
            return;
        }
        submissions.add(new PendingWorkload(workload, origin.named("Workload " + meta.getNamespace() + "/" + meta.getName())));
    }

    /** A Topology object (either version, read as v1beta2): its levels, for the flavors naming it by topologyName. */
    public void topology(dev.sluice.api.v1beta2.Topology topology, Origin origin) {
        if (!unique("Topology", null, topology.getMetadata(), origin)) {
            return;
        }
        try {
            topologies.put(topology.getMetadata().getName(),
                    new Named<>(dev.sluice.bridge.Topologies.toEngine(topology), origin));
        } catch (InvalidObjectException e) {
            refuse("Topology", topology.getMetadata().getName(), List.of(origin.error(e.field(), problemOf(e))));
        }
    }

    /**
     * A Node object as TAS counts it. Unlike a live cluster's, a hand-written Node usually has no status: it is Ready
     * unless its Ready condition says otherwise, its allocatable is its capacity when only that is given, and it
     * takes {@value SimNodes#DEFAULT_PODS} pods unless it says how many.
     */
    public void node(io.fabric8.kubernetes.api.model.Node node, Origin origin) {
        if (!unique("Node", null, node.getMetadata(), origin)) {
            return;
        }
        List<InputError> problems = new ArrayList<>();
        dev.sluice.engine.tas.TasNode n = SimNodes.toEngine(node, origin, problems);
        if (!problems.isEmpty()) {
            refuse("Node", node.getMetadata().getName(), problems);
            return;
        }
        nodes.add(n);
    }

    /** {@code --nodes}: the Topology now, the nodes at {@link #build()} (they carry the nodeLabels of its flavors). */
    public void syntheticNodes(SyntheticNodes spec, Origin origin) {
        synthetic = spec;
        syntheticOrigin = origin;
        topology(spec.topology(), origin.named("Topology " + spec.topologyName()));
    }

    /**
     * The generated nodes: labelled with the nodeLabels of every flavor naming their Topology, so that such a flavor
     * places on them (two such flavors asking different values of one label cannot share the nodes: an error).
     */
    private void addSyntheticNodes() {
        Map<String, String> labels = new TreeMap<>();
        for (ResourceFlavor f : flavorObjects.values()) {
            var spec = f.getSpec();
            if (spec == null || !synthetic.topologyName().equals(spec.getTopologyName()) || spec.getNodeLabels() == null) {
                continue;
            }
            for (var e : spec.getNodeLabels().entrySet()) {
                String had = labels.putIfAbsent(e.getKey(), e.getValue());
                if (had != null && !had.equals(e.getValue())) {
                    errors.add(syntheticOrigin.error(null, "the flavors naming topology " + synthetic.topologyName()
                            + " ask different values of node label " + e.getKey() + " (" + had + ", " + e.getValue()
                            + "); the generated nodes carry one: give the flavors the same nodeLabels, or write Node"
                            + " objects for each"));
                    return;
                }
            }
        }
        for (dev.sluice.engine.tas.TasNode n : synthetic.nodes(labels)) {
            if (seen.putIfAbsent("Node/" + n.name(), syntheticOrigin) != null) {
                errors.add(syntheticOrigin.error(null, "generates Node " + n.name()
                        + ", which the input already defines; rename the Node objects or leave out --nodes"));
                return;
            }
            nodes.add(n);
        }
    }

    /**
     * A flavor naming a Topology the input lacks waits as in a cluster ("information missing in TAS cache"), and
     * Nodes or a Topology nothing uses are probably a missing topologyName: both are warned about.
     */
    private void checkTopologyReferences() {
        java.util.Set<String> used = new java.util.HashSet<>();
        for (Named<FlavorSpec> f : flavors.values()) {
            String t = f.object().topologyName();
            if (t == null) {
                continue;
            }
            used.add(t);
            if (!topologies.containsKey(t) && !refused.contains("Topology/" + t)) {
                warnings.add(f.origin().error("spec.topologyName", "Topology \"" + t + "\" is not in the input; pod sets"
                        + " on this flavor wait (\"information missing in TAS cache\"), as in a cluster; add the"
                        + " Topology (or --nodes ... --topology " + t + ")").message());
            } else if (nodes.isEmpty()) {
                warnings.add(f.origin().error("spec.topologyName", "no Node is in the input, so nothing fits on this"
                        + " topology flavor; add Node objects or --nodes").message());
            }
        }
        for (Named<dev.sluice.engine.tas.Topology> t : topologies.values()) {
            if (!used.contains(t.object().name())) {
                warnings.add(t.origin().error(null, "no ResourceFlavor names Topology " + t.object().name()
                        + " (spec.topologyName), so no placement uses it; set spec.topologyName: " + t.object().name()
                        + " on the flavor of the nodes").message());
            }
        }
    }

    /** Checks every reference and builds the scenario; fails with every problem found. */
    public Scenario build() throws InvalidInputException {
        if (synthetic != null) {
            addSyntheticNodes();
        }
        checkQueueReferences();
        checkTopologyReferences();
        PriorityClasses classes = classes();
        List<SimWorkload> workloads = new ArrayList<>();
        // Creation order is input order: workloads created at the same instant into the same LocalQueue get
        // creation times one millisecond apart, so the engine's "older first" keeps their input order.
        Map<String, Integer> sameInstant = new HashMap<>();
        for (Object s : submissions) {
            SimWorkload w = s instanceof PendingJob j ? fromJob(j, classes, workloads.size())
                    : fromWorkload((PendingWorkload) s, classes, workloads.size());
            if (w == null) {
                continue;
            }
            String at = w.submitAtMillis() + "|" + w.key().namespace() + "/" + w.spec().queueName();
            int rank = sameInstant.merge(at, 1, Integer::sum) - 1;
            if (rank > 0) {
                WorkloadSpec sp = w.spec();
                w = new SimWorkload(w.index(), w.job(), new WorkloadSpec(sp.key(), sp.uid(), sp.queueName(), sp.priority(),
                        sp.creationTimeMillis() + rank, sp.podSets(), sp.active()), w.submitAtMillis(), w.durationMillis(),
                        w.priorityClass(), w.workloadClass(), w.readyAfterMillis(), w.readyLostAfterMillis());
            }
            workloads.add(w);
        }
        if (!errors.isEmpty()) {
            throw new InvalidInputException(errors);
        }
        return new Scenario(flavors.values().stream().map(Named::object).toList(),
                clusterQueues.values().stream().map(Named::object).toList(),
                localQueues.values().stream().map(Named::object).toList(), namespaces, workloads,
                List.copyOf(cohorts.values()), topologies.values().stream().map(Named::object).toList(), nodes);
    }

    private void checkQueueReferences() {
        for (Named<ClusterQueueSpec> cq : clusterQueues.values()) {
            List<ResourceGroupSpec> groups = cq.object().resourceGroups();
            for (int g = 0; g < groups.size(); g++) {
                List<FlavorQuotas> fqs = groups.get(g).flavors();
                for (int f = 0; f < fqs.size(); f++) {
                    if (!flavors.containsKey(fqs.get(f).flavor())
                            && !refused.contains("ResourceFlavor/" + fqs.get(f).flavor())) {
                        errors.add(cq.origin().error("spec.resourceGroups[" + g + "].flavors[" + f + "].name",
                                "ResourceFlavor \"" + fqs.get(f).flavor() + "\" is not in the input; add it or fix the name"));
                    }
                }
            }
        }
        for (Named<LocalQueueSpec> lq : localQueues.values()) {
            checkNamespace(lq.object().namespace(), lq.origin());
            if (!clusterQueues.containsKey(lq.object().clusterQueue())
                    && !refused.contains("ClusterQueue/" + lq.object().clusterQueue())) {
                errors.add(lq.origin().error("spec.clusterQueue", "ClusterQueue \"" + lq.object().clusterQueue()
                        + "\" is not in the input; add it or fix the name"));
            }
        }
    }

    private boolean checkNamespace(String namespace, Origin origin) {
        if (!namespaces.containsKey(namespace)) {
            errors.add(origin.error("metadata.namespace", "Namespace \"" + namespace
                    + "\" is not in the input; add a Namespace document or use default"));
            return false;
        }
        return true;
    }

    private SimWorkload fromJob(PendingJob p, PriorityClasses classes, int index) {
        GenericKubernetesResource job = p.job();
        String queue = JobWorkloads.queueName(job);
        if (queue == null && p.kind().heldTheAckWay(job)) {
            // submitted held the ack-kube-queue way: it joins its namespace's LocalQueue default, as in the cluster
            queue = ACK_DEFAULT_QUEUE;
            String ns = job.getMetadata().getNamespace();
            if (namespaces.containsKey(ns) && !localQueues.containsKey(ns + "/" + queue)) {
                errors.add(p.origin().error("metadata.labels[" + WellKnown.QUEUE_NAME + "]", "missing, and the "
                        + p.kind().kind() + " is held the ack-kube-queue way, so it joins LocalQueue \"" + queue
                        + "\" of namespace " + ns + ", which is not in the input; add that LocalQueue or the label"));
                return null;
            }
        }
        if (queue == null) {
            errors.add(p.origin().error("metadata.labels[" + WellKnown.QUEUE_NAME + "]",
                    "missing; a job without a queue label is not queued (add the label with a LocalQueue name, "
                            + "or submit the job held the ack-kube-queue way to use LocalQueue default)"));
            return null;
        }
        Workload workload;
        try {
            workload = JobWorkloads.forJob(p.kind(), job, classes);
            workload.getSpec().setQueueName(queue);
        } catch (InvalidJobException e) {
            errors.add(p.origin().error(e.field(), e.fix() == null || e.fix().isEmpty() ? e.problem()
                    : e.problem() + "; " + e.fix()));
            return null;
        } catch (InvalidObjectException e) {
            errors.add(p.origin().error(e.field(), problemOf(e)));
            return null;
        }
        workload.getMetadata().setAnnotations(job.getMetadata().getAnnotations());
        // The apiserver would give the Workload its own uid; a stable one keeps runs identical.
        workload.getMetadata().setUid(Names.uid("Workload/" + job.getMetadata().getNamespace() + "/"
                + workload.getMetadata().getName()));
        return toSim(workload, p.kind().kind() + "/" + job.getMetadata().getNamespace() + "/" + job.getMetadata().getName(),
                p.origin(), index, null);
    }

    private SimWorkload fromWorkload(PendingWorkload p, PriorityClasses classes, int index) {
        Workload w = p.workload();
        var spec = w.getSpec();
        if (spec == null || spec.getQueueName() == null || spec.getQueueName().isEmpty()) {
            errors.add(p.origin().error("spec.queueName", "required; name the LocalQueue the Workload waits in"));
            return null;
        }
        if (spec.getPodSets() != null) {
            java.util.Set<String> names = new java.util.HashSet<>();
            for (int i = 0; i < spec.getPodSets().size(); i++) {
                String name = spec.getPodSets().get(i).getName() == null ? dev.sluice.api.v1beta2.KueueDefaults.DEFAULT_POD_SET_NAME
                        : spec.getPodSets().get(i).getName();
                if (!names.add(name)) {
                    // the API server's words for a second item of a list keyed by name
                    errors.add(p.origin().error("spec.podSets[" + i + "]", "Duplicate value: map[string]interface {}{\"name\":\""
                            + name + "\"}; give each pod set its own name"));
                    return null;
                }
            }
        }
        var ref = spec.getPriorityClassRef();
        if (spec.getPriority() == null && ref != null && ref.getName() != null && !ref.getName().isEmpty()) {
            String name = ref.getName();
            boolean pod = ref.isPodPriorityClass();
            Optional<Integer> value = pod ? classes.priorityClass(name) : classes.workloadPriorityClass(name);
            if (value.isEmpty()) {
                errors.add(p.origin().error("spec.priorityClassRef.name", (pod ? "PriorityClass" : "WorkloadPriorityClass")
                        + " \"" + name + "\" is not in the input; add it or set spec.priority"));
                return null;
            }
            spec.setPriority(value.get());
        }
        var labels = w.getMetadata().getLabels();
        String workloadClass = labels == null ? null : labels.get(KueueBenchmark.CLASS_LABEL);
        return toSim(w, "Workload/" + w.getMetadata().getNamespace() + "/" + w.getMetadata().getName(), p.origin(), index,
                workloadClass);
    }

    private SimWorkload toSim(Workload workload, String job, Origin origin, int index, String workloadClass) {
        var meta = workload.getMetadata();
        if (!checkNamespace(meta.getNamespace(), origin)) {
            return null;
        }
        String queue = workload.getSpec().getQueueName();
        if (!localQueues.containsKey(meta.getNamespace() + "/" + queue)) {
            // as in a cluster: the Workload exists and waits, Inadmissible, until its LocalQueue appears
            String field = job.startsWith("Workload/") ? "spec.queueName" : "metadata.labels[" + WellKnown.QUEUE_NAME + "]";
            warnings.add(origin.error(field, "LocalQueue \"" + queue + "\" is not in the input in namespace "
                    + meta.getNamespace() + "; it waits Inadmissible (\"LocalQueue " + queue + " doesn't exist\"), as in a"
                    + " cluster; add the LocalQueue or fix the name").message());
        }
        Map<String, String> annotations = meta.getAnnotations() == null ? Map.of() : meta.getAnnotations();
        Long duration = duration(annotations, WellKnown.SIMULATED_DURATION, origin);
        Long submitAt = duration(annotations, WellKnown.SIMULATED_SUBMIT_AT, origin);
        Long readyAfter = readyAfter(annotations, origin);
        Long lostAfter = readyLostAfter(annotations, origin);
        if (duration == null || submitAt == null || readyAfter == null || lostAfter == null) {
            return null;
        }
        WorkloadSpec spec;
        try {
            spec = EngineWorkloads.toEngine(workload, submitAt);
        } catch (InvalidObjectException e) {
            errors.add(origin.error(e.field(), problemOf(e)));
            return null;
        } catch (IllegalArgumentException e) {
            errors.add(origin.error(null, e.getMessage())); // e.g. a node selector operator Kubernetes does not know
            return null;
        }
        var wspec = workload.getSpec();
        var wref = wspec.getPriorityClassRef();
        String priorityClass = wref != null && wref.getName() != null && !wref.getName().isEmpty()
                ? wref.getName() : "priority=" + spec.priority();
        return new SimWorkload(index, job, spec, submitAt, duration == -1 ? defaultDurationMillis : duration,
                priorityClass, workloadClass, readyAfter, lostAfter);
    }

    /** {@code sluice.dev/simulated-ready-lost-after}: a duration; readiness is kept when absent. */
    private Long readyLostAfter(Map<String, String> annotations, Origin origin) {
        String value = annotations.get(WellKnown.SIMULATED_READY_LOST_AFTER);
        if (value == null) {
            return SimWorkload.NEVER;
        }
        try {
            return Durations.parseMillis(value);
        } catch (IllegalArgumentException e) {
            errors.add(origin.error("metadata.annotations[" + WellKnown.SIMULATED_READY_LOST_AFTER + "]",
                    e.getMessage() + "; it is the time from PodsReady until a pod fails and is not replaced"));
            return null;
        }
    }

    /** {@code sluice.dev/simulated-ready-after}: a duration, or {@code never}; 0 (ready at once) when absent. */
    private Long readyAfter(Map<String, String> annotations, Origin origin) {
        String value = annotations.get(WellKnown.SIMULATED_READY_AFTER);
        if (value == null) {
            return 0L;
        }
        if ("never".equals(value.trim())) {
            return SimWorkload.NEVER;
        }
        try {
            return Durations.parseMillis(value);
        } catch (IllegalArgumentException e) {
            errors.add(origin.error("metadata.annotations[" + WellKnown.SIMULATED_READY_AFTER + "]",
                    e.getMessage() + "; or write never for pods that never get ready"));
            return null;
        }
    }

    /** The annotation's duration in ms; -1 (duration) or 0 (submit-at) when absent; null after an error. */
    private Long duration(Map<String, String> annotations, String key, Origin origin) {
        String value = annotations.get(key);
        if (value == null) {
            return WellKnown.SIMULATED_DURATION.equals(key) ? -1L : 0L;
        }
        try {
            return Durations.parseMillis(value);
        } catch (IllegalArgumentException e) {
            errors.add(origin.error("metadata.annotations[" + key + "]", e.getMessage()));
            return null;
        }
    }

    private PriorityClasses classes() {
        return new PriorityClasses() {
            @Override
            public Optional<Integer> workloadPriorityClass(String name) {
                return Optional.ofNullable(workloadPriorityClasses.get(name));
            }

            @Override
            public Optional<Integer> priorityClass(String name) {
                return Optional.ofNullable(priorityClasses.get(name));
            }

            @Override
            public Optional<Named> globalDefault() {
                return Optional.ofNullable(globalDefault);
            }
        };
    }

    private static void defaultNamespace(ObjectMeta meta) {
        if (meta.getNamespace() == null || meta.getNamespace().isEmpty()) {
            meta.setNamespace("default"); // as kubectl applies a manifest without one
        }
    }

    /**
     * Gives the object its name (a deterministic one for generateName) and uid, and rejects a second object of the
     * same kind and name.
     */
    private boolean unique(String kind, String namespace, ObjectMeta meta, Origin origin) {
        if (meta == null) {
            errors.add(origin.error("metadata", "required; give at least metadata.name"));
            return false;
        }
        if (meta.getName() == null || meta.getName().isEmpty()) {
            if (meta.getGenerateName() == null || meta.getGenerateName().isEmpty()) {
                errors.add(origin.error("metadata.name", "required (or metadata.generateName)"));
                return false;
            }
            String base = kind + "/" + namespace + "/" + meta.getGenerateName();
            int n = generatedNames.merge(base, 1, Integer::sum);
            meta.setName(meta.getGenerateName() + Names.suffix(base + "#" + n));
        }
        String id = kind + "/" + (namespace == null ? "" : namespace + "/") + meta.getName();
        Origin first = seen.putIfAbsent(id, origin);
        if (first != null) {
            errors.add(origin.error("metadata.name", kind + " " + (namespace == null ? "" : namespace + "/") + meta.getName()
                    + " is already defined in " + first.file() + " document " + first.document() + "; names must be unique"));
            return false;
        }
        if (meta.getUid() == null || meta.getUid().isEmpty()) {
            meta.setUid(Names.uid(id));
        }
        return true;
    }

    private static String problemOf(InvalidObjectException e) {
        String prefix = e.object() + ": " + e.field() + ": ";
        String m = e.getMessage();
        return m.startsWith(prefix) ? m.substring(prefix.length()) : m;
    }
}
