package dev.sluice.api.conversion;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Iterator;
import java.util.Map;

/**
 * What one version can say and the other cannot, kept in an annotation of the converted object (as Kueue keeps
 * v1beta2-only fields when it serves v1beta1), so that a round trip through the other version loses nothing.
 * Entries are JSON pointers into the version the data came from, and their values as they were.
 */
final class Stash {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final ObjectNode entries;

    private Stash(ObjectNode entries) {
        this.entries = entries;
    }

    static Stash empty() {
        return new Stash(Tree.NODES.objectNode());
    }

    /** Removes the annotation {@code key} from the object and reads it (empty when there is none). */
    static Stash take(ObjectNode object, String key, String objectName) throws ConversionException {
        ObjectNode annotations = Tree.object(object, "/metadata/annotations");
        if (annotations == null || !annotations.has(key)) {
            return empty();
        }
        JsonNode raw = annotations.remove(key);
        if (annotations.isEmpty()) {
            ((ObjectNode) object.get("metadata")).remove("annotations");
        }
        try {
            JsonNode parsed = raw.isTextual() ? JSON.readTree(raw.asText()) : null;
            if (parsed instanceof ObjectNode o) {
                return new Stash(o);
            }
        } catch (JsonProcessingException e) {
            // reported below
        }
        throw new ConversionException(objectName + ": metadata.annotations[" + key
                + "]: not a JSON object of the fields Sluice kept for the other version; remove the annotation"
                + " (those fields are then lost) or restore its value");
    }

    void put(String pointer, JsonNode value) {
        entries.set(pointer, value);
    }

    boolean has(String pointer) {
        return entries.has(pointer);
    }

    /** Takes an entry out: the caller decides whether it still applies. */
    JsonNode remove(String pointer) {
        return entries.remove(pointer);
    }

    /** Puts every remaining entry back where it was, unless the object has a value there now. */
    void restoreInto(ObjectNode object) {
        for (Iterator<Map.Entry<String, JsonNode>> it = entries.fields(); it.hasNext();) {
            Map.Entry<String, JsonNode> e = it.next();
            Tree.putIfAbsent(object, e.getKey(), e.getValue());
        }
    }

    /** Writes the entries, if any, as the annotation {@code key}. */
    void writeTo(ObjectNode object, String key) {
        if (entries.isEmpty()) {
            return;
        }
        ObjectNode metadata = object.get("metadata") instanceof ObjectNode m ? m : object.putObject("metadata");
        ObjectNode annotations = metadata.get("annotations") instanceof ObjectNode a ? a : metadata.putObject("annotations");
        try {
            annotations.put(key, JSON.writeValueAsString(entries));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree always writes", e);
        }
    }
}
