package dev.sluice.sim;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import dev.sluice.api.conversion.ConversionException;
import dev.sluice.api.conversion.KueueConversion;
import dev.sluice.api.v1beta2.ClusterQueue;
import dev.sluice.api.v1beta2.Cohort;
import dev.sluice.api.v1beta2.Kueue;
import dev.sluice.api.v1beta2.LocalQueue;
import dev.sluice.api.v1beta2.ResourceFlavor;
import dev.sluice.api.v1beta2.Workload;
import dev.sluice.api.v1beta2.WorkloadPriorityClass;
import dev.sluice.jobs.JobKind;
import dev.sluice.webhook.KueueObjectRules;
import dev.sluice.jobs.JobKinds;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClass;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Reads the simulator's PATH arguments: YAML files, or folders of them (sorted by name), each possibly with several
 * documents. Hands every object to a {@link ScenarioBuilder}; every problem names its file and document.
 */
public final class ManifestLoader {

    static final String SUPPORTED = "ResourceFlavor, ClusterQueue, LocalQueue, WorkloadPriorityClass, Workload, Cohort, "
            + "Topology (kueue.x-k8s.io/v1beta2 or v1beta1), PriorityClass (scheduling.k8s.io/v1), Namespace, Node (v1)";

    /** The v1beta1 model a v1beta1 document must fit, field for field, before it is converted to the hub (v1beta2). */
    private static final java.util.Map<String, Class<?>> V1BETA1_TYPES = java.util.Map.of(
            "ResourceFlavor", dev.sluice.api.v1beta1.ResourceFlavor.class,
            "ClusterQueue", dev.sluice.api.v1beta1.ClusterQueue.class,
            "LocalQueue", dev.sluice.api.v1beta1.LocalQueue.class,
            "Workload", dev.sluice.api.v1beta1.Workload.class,
            "WorkloadPriorityClass", dev.sluice.api.v1beta1.WorkloadPriorityClass.class,
            "Cohort", dev.sluice.api.v1beta1.Cohort.class,
            "Topology", dev.sluice.api.v1beta1.Topology.class);

    private static final java.util.Map<String, Class<?>> V1BETA2_TYPES = java.util.Map.of(
            "ResourceFlavor", ResourceFlavor.class, "ClusterQueue", ClusterQueue.class, "LocalQueue", LocalQueue.class,
            "Workload", Workload.class, "WorkloadPriorityClass", WorkloadPriorityClass.class, "Cohort", Cohort.class,
            "Topology", dev.sluice.api.v1beta2.Topology.class);

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
    /** Unknown fields of Kueue's objects are errors, as with kubectl's strict validation. */
    private static final ObjectMapper STRICT = Serialization.jsonMapper().copy()
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    private final JobKinds kinds;

    public ManifestLoader(JobKinds kinds) {
        this.kinds = kinds;
    }

    /** The YAML files a PATH argument stands for, in the order they are read. */
    public static List<Path> files(Path path) throws IOException {
        if (!Files.isDirectory(path)) {
            return List.of(path);
        }
        try (Stream<Path> s = Files.list(path)) {
            return s.filter(p -> Files.isRegularFile(p)
                    && (p.getFileName().toString().endsWith(".yaml") || p.getFileName().toString().endsWith(".yml")))
                    .sorted().toList();
        }
    }

    public void load(List<String> paths, ScenarioBuilder builder) {
        for (String arg : paths) {
            Path path = Path.of(arg);
            if (!Files.exists(path)) {
                builder.error(new InputError(arg, 0, null, null, "no such file or folder"));
                continue;
            }
            try {
                List<Path> files = files(path);
                if (files.isEmpty()) {
                    builder.error(new InputError(arg, 0, null, null, "the folder holds no .yaml or .yml file"));
                }
                for (Path file : files) {
                    loadFile(file, builder);
                }
            } catch (IOException e) {
                builder.error(new InputError(arg, 0, null, null, "cannot be read: " + e.getMessage()));
            }
        }
    }

    private void loadFile(Path file, ScenarioBuilder builder) throws IOException {
        String name = file.toString();
        List<JsonNode> docs = new ArrayList<>();
        try (Reader r = Files.newBufferedReader(file);
             MappingIterator<JsonNode> it = YAML.readerFor(JsonNode.class).readValues(r)) {
            while (it.hasNextValue()) {
                docs.add(it.nextValue());
            }
        } catch (JsonProcessingException e) {
            var loc = e.getLocation();
            // SnakeYAML's message quotes the source with a caret; keep its sentences only.
            String what = String.join("; ", e.getOriginalMessage().lines()
                    .filter(l -> !l.isBlank() && !Character.isWhitespace(l.charAt(0))).toList());
            builder.error(new InputError(name, docs.size() + 1, null, null, "does not parse as YAML: "
                    + what + (loc == null ? "" : " (line " + loc.getLineNr() + ", column " + loc.getColumnNr() + ")")));
            return;
        }
        for (int i = 0; i < docs.size(); i++) {
            JsonNode doc = docs.get(i);
            if (doc == null || doc.isNull() || doc.isMissingNode()) {
                continue; // an empty document, e.g. after a trailing ---
            }
            load(doc, new Origin(name, i + 1, null), builder);
        }
    }

    private void load(JsonNode doc, Origin origin, ScenarioBuilder builder) {
        if (!doc.isObject()) {
            builder.error(origin.error(null, "is not an object; expected a Kubernetes manifest with apiVersion and kind"));
            return;
        }
        String apiVersion = doc.path("apiVersion").asText("");
        String kind = doc.path("kind").asText("");
        if (apiVersion.isEmpty() || kind.isEmpty()) {
            builder.error(origin.error(apiVersion.isEmpty() ? "apiVersion" : "kind", "required"));
            return;
        }
        String name = doc.path("metadata").path("name").asText(doc.path("metadata").path("generateName").asText(""));
        String ns = doc.path("metadata").path("namespace").asText("");
        Origin o = origin.named(kind + " " + (ns.isEmpty() ? "" : ns + "/") + name);
        try {
            if (V1BETA2_TYPES.containsKey(kind) && KueueConversion.VERSIONS.contains(apiVersion)) {
                // either version, read the same way: checked against its own version's fields and Kueue's admission
                // rules (what the API server would refuse is refused here, in its words), then converted to the hub
                // (v1beta2), as the API server's conversion webhook would
                boolean hub = apiVersion.equals(Kueue.API_VERSION);
                convert(doc, (hub ? V1BETA2_TYPES : V1BETA1_TYPES).get(kind));
                List<String> refused = KueueObjectRules.problems(doc);
                if (!refused.isEmpty()) {
                    builder.refuse(kind, name, refused.stream().map(problem -> o.error(null, problem)).toList());
                    return;
                }
                if (!hub) {
                    doc = KueueConversion.convert(doc, Kueue.API_VERSION);
                }
                String unusable = unusableV1beta1Fields(doc);
                if (unusable != null) {
                    builder.error(o.error(null, "has fields the simulator cannot use (" + unusable + ")"));
                    return;
                }
                if (kind.equals("Cohort")) {
                    builder.cohort(convert(doc, Cohort.class), o);
                    return;
                }
                apiVersion = Kueue.API_VERSION;
            }
            switch (apiVersion + " " + kind) {
                case Kueue.API_VERSION + " ResourceFlavor" -> builder.flavor(convert(doc, ResourceFlavor.class), o);
                case Kueue.API_VERSION + " ClusterQueue" -> builder.clusterQueue(convert(doc, ClusterQueue.class), o);
                case Kueue.API_VERSION + " LocalQueue" -> builder.localQueue(convert(doc, LocalQueue.class), o);
                case Kueue.API_VERSION + " Workload" -> builder.workload(convert(doc, Workload.class), o);
                case Kueue.API_VERSION + " WorkloadPriorityClass" -> {
                    WorkloadPriorityClass c = convert(doc, WorkloadPriorityClass.class);
                    builder.workloadPriorityClass(c.getMetadata(), c.getValue(), o);
                }
                case "scheduling.k8s.io/v1 PriorityClass" -> {
                    PriorityClass c = convert(doc, PriorityClass.class);
                    builder.priorityClass(c.getMetadata(), c.getValue(), c.getGlobalDefault(), o);
                }
                case Kueue.API_VERSION + " Topology" ->
                        builder.topology(convert(doc, dev.sluice.api.v1beta2.Topology.class), o);
                case "v1 Node" -> builder.node(convert(doc, io.fabric8.kubernetes.api.model.Node.class), o);
                case "v1 Namespace" -> {
                    Namespace n = convert(doc, Namespace.class);
                    builder.namespace(n.getMetadata() == null ? null : n.getMetadata().getName(),
                            n.getMetadata() == null ? null : n.getMetadata().getLabels(), o);
                }
                default -> {
                    Optional<JobKind> jobKind = kinds.forApiVersionKind(apiVersion, kind);
                    if (jobKind.isEmpty()) {
                        builder.error(o.error("kind", "unknown kind " + kind + " (apiVersion " + apiVersion
                                + "); the simulator reads " + SUPPORTED + " and the jobs " + jobKinds()));
                        return;
                    }
                    builder.job(jobKind.get(), convert(doc, GenericKubernetesResource.class), o);
                }
            }
        } catch (JsonMappingException e) {
            builder.error(o.error(path(e), e.getOriginalMessage().split("\n")[0]));
        } catch (ConversionException e) {
            builder.error(o.error(null, e.getMessage()));
        }
    }

    /**
     * What the conversion kept of a v1beta1 document because v1beta2 has no field for it (null if nothing): the
     * simulator cannot act on it. Older spellings of a value v1beta2 holds (Borrow, Preempt) mean what the v1beta2
     * object says, so they are not counted.
     */
    private static String unusableV1beta1Fields(JsonNode doc) {
        JsonNode kept = doc.path("metadata").path("annotations").path(KueueConversion.V1BETA1_FIELDS);
        if (kept.isMissingNode()) {
            return null;
        }
        JsonNode fields;
        try {
            fields = STRICT.readTree(kept.asText());
        } catch (JsonProcessingException e) {
            return kept.asText(); // the conversion writes JSON; a document may have carried its own value
        }
        if (!(fields instanceof ObjectNode entries)) {
            return kept.asText();
        }
        entries.remove(KueueConversion.V1BETA1_SPELLINGS);
        return entries.isEmpty() ? null : entries.toString();
    }

    private String jobKinds() {
        return String.join(", ", kinds.all().stream().map(k -> k.kind() + " (" + k.apiVersion() + ")").toList());
    }

    private static <T> T convert(JsonNode doc, Class<T> type) throws JsonMappingException {
        try {
            return STRICT.treeToValue(doc, type);
        } catch (JsonMappingException e) {
            throw e;
        } catch (JsonProcessingException e) {
            throw JsonMappingException.wrapWithPath(e, (Object) null, "");
        }
    }

    /** The field path of a mapping error, e.g. {@code spec.resourceGroups[0].flavors}. */
    static String path(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                if (!sb.isEmpty()) {
                    sb.append('.');
                }
                sb.append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                sb.append('[').append(ref.getIndex()).append(']');
            }
        }
        return sb.toString();
    }
}
