package dev.sluice.config;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads Kueue's Configuration file and says, once, what Sluice does with each field: applied (as which Sluice
 * setting), read but not yet applied, ignored (no effect on admissions), or refused (ignoring it would change which
 * jobs are admitted: the start stops). A file that does not parse stops the start with file, line and field.
 */
public final class KueueConfigReader {

    public static final List<String> API_VERSIONS = List.of("config.kueue.x-k8s.io/v1beta1", "config.kueue.x-k8s.io/v1beta2");

    /** Kueue's framework names and the Sluice integration each becomes. */
    public static final Map<String, String> FRAMEWORKS = Map.ofEntries(Map.entry("batch/job", "job"),
            Map.entry("jobset.x-k8s.io/jobset", "jobset"), Map.entry("kubeflow.org/tfjob", "tfjob"),
            Map.entry("kubeflow.org/pytorchjob", "pytorchjob"), Map.entry("kubeflow.org/xgboostjob", "xgboostjob"),
            Map.entry("kubeflow.org/paddlejob", "paddlejob"), Map.entry("kubeflow.org/jaxjob", "jaxjob"),
            Map.entry("kubeflow.org/mpijob", "mpijob"), Map.entry("ray.io/rayjob", "rayjob"),
            Map.entry("ray.io/raycluster", "raycluster"), Map.entry("ray.io/rayservice", "rayservice"),
            Map.entry("sparkoperator.k8s.io/sparkapplication", "sparkapplication"),
            Map.entry("workload.codeflare.dev/appwrapper", "appwrapper"));

    /** Sections of the manager itself (ports, probes, leader election, certificates): Sluice has its own. */
    private static final Set<String> MANAGER = Set.of("apiVersion", "kind", "namespace", "health", "metrics", "webhook",
            "leaderElection", "controller", "clientConnection", "internalCertManagement", "pprofBindAddress",
            "featureGates", "queueVisibility", "visibility");
    /** Read into {@link KueueConfig} for the features being built; not applied yet. */
    private static final Set<String> NOT_YET = Set.of();
    /** Ignoring these would admit differently from Kueue. */
    private static final Map<String, String> REFUSED = Map.of(
            "resources", "Sluice counts every resource as requested (no excludeResourcePrefixes or transformations); remove the section",
            "multiKueue", "Sluice does not dispatch to other clusters; remove the section",
            "admissionChecks", "Sluice runs no admission checks; remove the section");

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);

    /** The configuration and what start-up reports about it. */
    public record Result(KueueConfig config, Map<String, Boolean> integrations, List<String> notices) {
    }

    private KueueConfigReader() {
    }

    public static Result read(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new KueueConfigException(file + ": cannot be read (sluice.kueue-config): " + e.getMessage());
        }
        JsonNode tree;
        KueueConfig config;
        try {
            tree = YAML.readTree(text);
            config = YAML.readValue(text, KueueConfig.class);
        } catch (JsonMappingException e) {
            throw new KueueConfigException(file + ":" + line(e.getLocation()) + ": " + field(e) + ": "
                    + e.getOriginalMessage().split("\n")[0]);
        } catch (JsonProcessingException e) {
            throw new KueueConfigException(file + ":" + line(e.getLocation()) + ": does not parse as YAML: "
                    + e.getOriginalMessage().lines().filter(l -> !l.isBlank() && !Character.isWhitespace(l.charAt(0)))
                            .findFirst().orElse(""));
        }
        if (tree == null || !tree.isObject()) {
            throw new KueueConfigException(file + ":1: not a Configuration (expected a YAML object with apiVersion and kind)");
        }
        if (!API_VERSIONS.contains(tree.path("apiVersion").asText()) || !"Configuration".equals(tree.path("kind").asText())) {
            throw new KueueConfigException(file + ":1: apiVersion/kind: " + tree.path("apiVersion").asText("(missing)") + "/"
                    + tree.path("kind").asText("(missing)") + " is not Kueue's Configuration (kind Configuration, apiVersion "
                    + String.join(" or ", API_VERSIONS) + ")");
        }
        List<String> notices = new ArrayList<>();
        List<String> refusals = new ArrayList<>();
        Map<String, Boolean> integrations = new LinkedHashMap<>();
        tree.fieldNames().forEachRemaining(name -> {
            if (MANAGER.contains(name)) {
                if (!name.equals("apiVersion") && !name.equals("kind")) {
                    notices.add(name + ": ignored (Sluice's own settings and chart values cover the manager)");
                }
            } else if (KueueRetention.FIELD.equals(name)) {
                notices.addAll(KueueRetention.notices(config.objectRetentionPolicies(), file.toString()));
            } else if (NOT_YET.contains(name)) {
                notices.add(name + ": read, not yet applied (the feature is being built)");
            } else if (REFUSED.containsKey(name)) {
                refusals.add(name + ": refused: " + REFUSED.get(name));
            } else if (!Set.of("integrations", "manageJobsWithoutQueueName", "managedJobsNamespaceSelector",
                    "waitForPodsReady", "fairSharing", "objectRetentionPolicies", KueueAdmissionFairSharing.FIELD).contains(name)) {
                notices.add(name + ": ignored (not a field Sluice knows of Kueue's Configuration)");
            }
        });
        if (config.integrations() != null) {
            if (config.integrations().frameworks() != null) {
                FRAMEWORKS.values().forEach(kind -> integrations.put(kind, false));
                for (String framework : config.integrations().frameworks()) {
                    String kind = FRAMEWORKS.get(framework);
                    if (kind == null) {
                        notices.add("integrations.frameworks: " + framework + ": ignored: Sluice does not queue this kind"
                                + " (it queues " + String.join(", ", FRAMEWORKS.keySet().stream().sorted().toList()) + ")");
                    } else {
                        integrations.put(kind, true);
                    }
                }
                notices.add("integrations.frameworks: applied as " + String.join(", ", integrations.entrySet().stream()
                        .map(e -> "sluice.integrations." + e.getKey() + ".enabled=" + e.getValue()).toList()));
            }
            if (config.integrations().externalFrameworks() != null && !config.integrations().externalFrameworks().isEmpty()) {
                notices.add("integrations.externalFrameworks: ignored: Sluice queues no external frameworks");
            }
            tree.path("integrations").fieldNames().forEachRemaining(name -> {
                if (!Set.of("frameworks", "externalFrameworks").contains(name)) {
                    notices.add("integrations." + name + ": ignored");
                }
            });
        }
        // waitForPodsReady: applied (see WaitForPodsReadyMapping), also when absent (config v1beta1: then off)
        notices.add(WaitForPodsReadyMapping.notice(WaitForPodsReadyMapping.properties(file.toString(),
                config.apiVersion(), config.waitForPodsReady()), config.waitForPodsReady()));
        if (Boolean.TRUE.equals(config.manageJobsWithoutQueueName())) {
            refusals.add("manageJobsWithoutQueueName: refused: Sluice does not hold unlabeled jobs cluster-wide; set it to"
                    + " false and label the namespaces managedJobsNamespaceSelector selects with sluice.dev/queue-by-default:"
                    + " \"true\" (their unlabeled jobs then queue in LocalQueue default)");
        } else if (tree.has("managedJobsNamespaceSelector")) {
            // Kueue v0.19: a strong exemption only for its pod-based integrations (pod, deployment, statefulset, ...),
            // which Sluice does not have; for the others it only narrows manageJobsWithoutQueueName, and a job with a
            // queue-name label is always managed
            notices.add("managedJobsNamespaceSelector: read; as in Kueue it only narrows manageJobsWithoutQueueName for"
                    + " the kinds Sluice queues (a job with kueue.x-k8s.io/queue-name is managed in any namespace), so"
                    + " without manageJobsWithoutQueueName it changes nothing");
        }
        KueueFairSharing.report(config, notices, refusals);
        KueueAdmissionFairSharing.report(config.admissionFairSharing(), file.toString(), notices);
        if (!refusals.isEmpty()) {
            throw new KueueConfigException(file + ": Sluice cannot run as this Configuration asks: " + String.join("; ", refusals));
        }
        return new Result(config, integrations, List.copyOf(notices));
    }

    private static String line(JsonLocation location) {
        return location == null ? "?" : String.valueOf(location.getLineNr());
    }

    private static String field(JsonMappingException e) {
        StringBuilder sb = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                sb.append(sb.isEmpty() ? "" : ".").append(ref.getFieldName());
            } else if (ref.getIndex() >= 0) {
                sb.append('[').append(ref.getIndex()).append(']');
            }
        }
        return sb.toString();
    }
}
