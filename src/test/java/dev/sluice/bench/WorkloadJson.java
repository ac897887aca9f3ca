package dev.sluice.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads Workloads from the API server's JSON with a streaming parser, keeping only what {@link WorkloadView} holds:
 * the spec (pod templates) and every other field are skipped without being built. One watch event costs a single
 * pass over its text, instead of a tree and then the full model as fabric8's watch decoding does.
 */
final class WorkloadJson {

    /** One watch event: ADDED, MODIFIED, DELETED, or ERROR/BOOKMARK (whose object is no Workload: see {@link #isChange}). */
    record Event(String type, WorkloadView workload) {
        boolean isChange() {
            return workload != null && workload.name() != null
                    && ("ADDED".equals(type) || "MODIFIED".equals(type) || "DELETED".equals(type));
        }
    }

    private static final JsonFactory JSON = new JsonFactory();

    private WorkloadJson() {
    }

    /** A watch event, {@code {"type": ..., "object": {...}}}. */
    static Event event(String text) {
        try (JsonParser p = JSON.createParser(text)) {
            expect(p.nextToken(), JsonToken.START_OBJECT, text);
            String type = null;
            WorkloadView wl = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken t = p.nextToken();
                if ("type".equals(field)) {
                    type = p.getValueAsString();
                } else if ("object".equals(field) && t == JsonToken.START_OBJECT) {
                    wl = workload(p); // an ERROR event's Status reads as a view without a name
                } else {
                    p.skipChildren();
                }
            }
            return new Event(type, wl);
        } catch (IOException e) {
            throw new UncheckedIOException("bad watch event: " + abbreviate(text), e);
        }
    }

    /** One Workload, as a GET answers it. */
    static WorkloadView workload(String text) {
        try (JsonParser p = JSON.createParser(text)) {
            expect(p.nextToken(), JsonToken.START_OBJECT, text);
            return workload(p);
        } catch (IOException e) {
            throw new UncheckedIOException("bad Workload: " + abbreviate(text), e);
        }
    }

    /** The items of a WorkloadList, as a LIST answers it. */
    static List<WorkloadView> list(String text) {
        List<WorkloadView> out = new ArrayList<>();
        try (JsonParser p = JSON.createParser(text)) {
            expect(p.nextToken(), JsonToken.START_OBJECT, text);
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken t = p.nextToken();
                if ("items".equals(field) && t == JsonToken.START_ARRAY) {
                    while (p.nextToken() == JsonToken.START_OBJECT) {
                        out.add(workload(p));
                    }
                } else {
                    p.skipChildren();
                }
            }
            return out;
        } catch (IOException e) {
            throw new UncheckedIOException("bad WorkloadList: " + abbreviate(text), e);
        }
    }

    /** The parser is on the object's START_OBJECT; returns after its END_OBJECT. */
    private static WorkloadView workload(JsonParser p) throws IOException {
        String namespace = null;
        String name = null;
        String resourceVersion = null;
        long generation = 0;
        WorkloadView.AdmissionView admission = null;
        List<WorkloadView.ConditionView> conditions = List.of();
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            if ("metadata".equals(field) && t == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String m = p.currentName();
                    p.nextToken();
                    switch (m) {
                        case "name" -> name = p.getValueAsString();
                        case "namespace" -> namespace = p.getValueAsString();
                        case "resourceVersion" -> resourceVersion = p.getValueAsString();
                        case "generation" -> generation = p.getValueAsLong();
                        default -> p.skipChildren();
                    }
                }
            } else if ("status".equals(field) && t == JsonToken.START_OBJECT) {
                while (p.nextToken() == JsonToken.FIELD_NAME) {
                    String s = p.currentName();
                    JsonToken st = p.nextToken();
                    if ("admission".equals(s) && st == JsonToken.START_OBJECT) {
                        admission = admission(p);
                    } else if ("conditions".equals(s) && st == JsonToken.START_ARRAY) {
                        conditions = conditions(p);
                    } else {
                        p.skipChildren();
                    }
                }
            } else {
                p.skipChildren();
            }
        }
        return new WorkloadView(namespace, name, resourceVersion, generation, admission, conditions);
    }

    private static WorkloadView.AdmissionView admission(JsonParser p) throws IOException {
        String clusterQueue = null;
        List<WorkloadView.PodSetUsage> podSets = new ArrayList<>(1);
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            if ("clusterQueue".equals(field)) {
                clusterQueue = p.getValueAsString();
            } else if ("podSetAssignments".equals(field) && t == JsonToken.START_ARRAY) {
                while (p.nextToken() == JsonToken.START_OBJECT) {
                    podSets.add(podSet(p));
                }
            } else {
                p.skipChildren();
            }
        }
        return new WorkloadView.AdmissionView(clusterQueue, podSets);
    }

    private static WorkloadView.PodSetUsage podSet(JsonParser p) throws IOException {
        String name = null;
        Map<String, String> flavors = Map.of();
        Map<String, BigDecimal> usage = new HashMap<>(4);
        Integer count = null;
        while (p.nextToken() == JsonToken.FIELD_NAME) {
            String field = p.currentName();
            JsonToken t = p.nextToken();
            switch (field) {
                case "name" -> name = p.getValueAsString();
                case "count" -> count = t == JsonToken.VALUE_NULL ? null : p.getValueAsInt();
                case "flavors" -> {
                    if (t == JsonToken.START_OBJECT) {
                        Map<String, String> f = new HashMap<>(4);
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String r = p.currentName();
                            p.nextToken();
                            f.put(r, p.getValueAsString());
                        }
                        flavors = f;
                    } else {
                        p.skipChildren();
                    }
                }
                case "resourceUsage" -> {
                    if (t == JsonToken.START_OBJECT) {
                        while (p.nextToken() == JsonToken.FIELD_NAME) {
                            String r = p.currentName();
                            p.nextToken();
                            usage.put(r, WorkloadView.amount(p.getValueAsString()));
                        }
                    } else {
                        p.skipChildren();
                    }
                }
                default -> p.skipChildren();
            }
        }
        return new WorkloadView.PodSetUsage(name, flavors, usage, count);
    }

    private static List<WorkloadView.ConditionView> conditions(JsonParser p) throws IOException {
        List<WorkloadView.ConditionView> out = new ArrayList<>(6);
        while (p.nextToken() == JsonToken.START_OBJECT) {
            String type = null;
            String status = null;
            String reason = null;
            String message = null;
            String at = null;
            Long observedGeneration = null;
            while (p.nextToken() == JsonToken.FIELD_NAME) {
                String field = p.currentName();
                JsonToken t = p.nextToken();
                switch (field) {
                    case "type" -> type = p.getValueAsString();
                    case "status" -> status = p.getValueAsString();
                    case "reason" -> reason = p.getValueAsString();
                    case "message" -> message = p.getValueAsString();
                    case "lastTransitionTime" -> at = p.getValueAsString();
                    case "observedGeneration" -> observedGeneration = t == JsonToken.VALUE_NULL ? null : p.getValueAsLong();
                    default -> p.skipChildren();
                }
            }
            out.add(new WorkloadView.ConditionView(type, status, reason, message, at, observedGeneration));
        }
        return out;
    }

    private static void expect(JsonToken got, JsonToken want, String text) throws IOException {
        if (got != want) {
            throw new IOException("expected " + want + " at the start, got " + got + " in " + abbreviate(text));
        }
    }

    private static String abbreviate(String text) {
        return text.length() <= 300 ? text : text.substring(0, 300) + "...";
    }
}
