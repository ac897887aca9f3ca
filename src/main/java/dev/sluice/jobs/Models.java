package dev.sluice.jobs;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodTemplateSpec;
import io.fabric8.kubernetes.api.model.Toleration;
import java.util.LinkedHashMap;
import java.util.Map;

/** Conversion between a job's raw tree and fabric8 model objects. */
final class Models {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final TypeReference<LinkedHashMap<String, Object>> RAW = new TypeReference<>() {
    };

    private Models() {
    }

    static PodTemplateSpec podTemplate(Map<String, Object> raw, String job, String path) {
        if (raw == null) {
            throw new InvalidJobException(job, path, "is missing", "give the pod template (metadata and spec)");
        }
        try {
            return MAPPER.convertValue(raw, PodTemplateSpec.class);
        } catch (IllegalArgumentException e) {
            throw new InvalidJobException(job, path, "is not a valid pod template (" + rootMessage(e) + ")",
                    "check the field named against the Kubernetes PodTemplateSpec schema");
        }
    }

    static LinkedHashMap<String, Object> raw(Object model) {
        return MAPPER.convertValue(model, RAW);
    }

    static Toleration toleration(Object raw, String job, String path) {
        try {
            return MAPPER.convertValue(raw, Toleration.class);
        } catch (IllegalArgumentException e) {
            throw new InvalidJobException(job, path, "is not a valid toleration (" + rootMessage(e) + ")",
                    "use key, operator, value, effect and tolerationSeconds");
        }
    }

    /** {@code Kind namespace/name} (or {@code Kind name}) for messages. */
    static String ref(HasMetadata job) {
        String kind = job.getKind() == null ? "object" : job.getKind();
        if (job.getMetadata() == null) {
            return kind;
        }
        String name = job.getMetadata().getName();
        if (name == null) {
            name = job.getMetadata().getGenerateName() == null ? "<unnamed>" : job.getMetadata().getGenerateName() + "*";
        }
        String ns = job.getMetadata().getNamespace();
        return ns == null ? kind + " " + name : kind + " " + ns + "/" + name;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        String m = t.getMessage() == null ? t.toString() : t.getMessage();
        int nl = m.indexOf('\n');
        return nl > 0 ? m.substring(0, nl) : m;
    }
}
