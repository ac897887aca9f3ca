package dev.sluice.controller.admissionchecks.provisioning;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cluster autoscaler's {@code autoscaling.x-k8s.io/v1} ProvisioningRequest, read and built as a
 * GenericKubernetesResource (its CRD is the autoscaler's, not Sluice's): names of its conditions and pod annotations,
 * and typed views of the fields the controller reads.
 */
final class ProvisioningRequests {

    static final String GROUP = "autoscaling.x-k8s.io";
    static final String VERSION = "v1";
    static final String API_VERSION = GROUP + "/" + VERSION;
    static final String KIND = "ProvisioningRequest";
    static final String PLURAL = "provisioningrequests";
    static final ResourceDefinitionContext CONTEXT = new ResourceDefinitionContext.Builder().withGroup(GROUP)
            .withVersion(VERSION).withKind(KIND).withPlural(PLURAL).withNamespaced(true).build();

    // condition types the autoscaler sets (autoscaling.x-k8s.io/v1 types.go)
    static final String ACCEPTED = "Accepted";
    static final String BOOKING_EXPIRED = "BookingExpired";
    static final String CAPACITY_REVOKED = "CapacityRevoked";
    static final String PROVISIONED = "Provisioned";
    static final String FAILED = "Failed";

    /** Pods that consume the provisioned capacity carry the request's name and class in these annotations. */
    static final String CONSUME_ANNOTATION = "autoscaling.x-k8s.io/consume-provisioning-request";
    static final String CLASS_ANNOTATION = "autoscaling.x-k8s.io/provisioning-class-name";

    private ProvisioningRequests() {
    }

    /** One pod set of a request: its PodTemplate's name and pod count. */
    record PodSet(String podTemplate, int count) {
    }

    static String name(GenericKubernetesResource pr) {
        return pr.getMetadata().getName();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> spec(GenericKubernetesResource pr) {
        Object spec = pr.getAdditionalProperties().get("spec");
        return spec instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> status(GenericKubernetesResource pr) {
        Object status = pr.getAdditionalProperties().get("status");
        return status instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }

    static String className(GenericKubernetesResource pr) {
        Object c = spec(pr).get("provisioningClassName");
        return c == null ? "" : c.toString();
    }

    static Map<String, String> parameters(GenericKubernetesResource pr) {
        return strings(spec(pr).get("parameters"));
    }

    static List<PodSet> podSets(GenericKubernetesResource pr) {
        List<PodSet> out = new ArrayList<>();
        if (spec(pr).get("podSets") instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Map<?, ?> ps) {
                    Object ref = ps.get("podTemplateRef") instanceof Map<?, ?> r ? r.get("name") : null;
                    Object count = ps.get("count");
                    out.add(new PodSet(ref == null ? "" : ref.toString(),
                            count instanceof Number n ? n.intValue() : 0));
                }
            }
        }
        return out;
    }

    static Map<String, String> classDetails(GenericKubernetesResource pr) {
        return strings(status(pr).get("provisioningClassDetails"));
    }

    /** The condition of that type, or null. */
    static Map<?, ?> condition(GenericKubernetesResource pr, String type) {
        if (status(pr).get("conditions") instanceof List<?> list) {
            for (Object o : list) {
                if (o instanceof Map<?, ?> c && type.equals(c.get("type"))) {
                    return c;
                }
            }
        }
        return null;
    }

    static boolean isTrue(GenericKubernetesResource pr, String type) {
        Map<?, ?> c = condition(pr, type);
        return c != null && "True".equals(c.get("status"));
    }

    /** The message of the condition of that type ("" when it has none, or there is no such condition). */
    static String message(GenericKubernetesResource pr, String type) {
        Map<?, ?> c = condition(pr, type);
        Object m = c == null ? null : c.get("message");
        return m == null ? "" : m.toString();
    }

    private static Map<String, String> strings(Object o) {
        Map<String, String> out = new LinkedHashMap<>();
        if (o instanceof Map<?, ?> m) {
            m.forEach((k, v) -> out.put(String.valueOf(k), v == null ? "" : v.toString()));
        }
        return out;
    }
}
