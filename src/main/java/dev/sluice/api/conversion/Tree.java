package dev.sluice.api.conversion;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/** Small helpers over JSON trees addressed by JSON pointers (RFC 6901, no escapes: Kueue's field names need none). */
final class Tree {

    static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private Tree() {
    }

    /** The object at {@code pointer}, or null when it is missing or not an object. */
    static ObjectNode object(JsonNode root, String pointer) {
        JsonNode node = root.at(pointer);
        return node instanceof ObjectNode o ? o : null;
    }

    static ArrayNode array(JsonNode root, String pointer) {
        JsonNode node = root.at(pointer);
        return node instanceof ArrayNode a ? a : null;
    }

    /** Renames a field of the object at {@code parent}, if both exist. */
    static void rename(JsonNode root, String parent, String from, String to) {
        ObjectNode o = object(root, parent);
        if (o != null && o.has(from)) {
            o.set(to, o.remove(from));
        }
    }

    /** Removes the field at {@code pointer} and keeps it in {@code stash} under the same pointer. */
    static void drop(JsonNode root, String pointer, Stash stash) {
        int slash = pointer.lastIndexOf('/');
        ObjectNode parent = object(root, pointer.substring(0, slash));
        String field = pointer.substring(slash + 1);
        if (parent != null && parent.has(field)) {
            stash.put(pointer, parent.remove(field));
        }
    }

    /**
     * Sets {@code value} at {@code pointer} unless something is there already. Missing objects on the way are
     * created; a missing list item means the place is gone (the object was edited since), so nothing is set.
     */
    static boolean putIfAbsent(JsonNode root, String pointer, JsonNode value) {
        String[] segments = pointer.substring(1).split("/");
        JsonNode current = root;
        for (int i = 0; i < segments.length - 1; i++) {
            String s = segments[i];
            if (current instanceof ArrayNode a) {
                int index = index(s);
                if (index < 0 || index >= a.size()) {
                    return false;
                }
                current = a.get(index);
            } else if (current instanceof ObjectNode o) {
                JsonNode next = o.get(s);
                if (next == null || next.isNull()) {
                    next = o.putObject(s);
                }
                current = next;
            } else {
                return false;
            }
        }
        String last = segments[segments.length - 1];
        if (current instanceof ObjectNode o && !o.has(last)) {
            o.set(last, value);
            return true;
        }
        return false;
    }

    private static int index(String segment) {
        try {
            return Integer.parseInt(segment);
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** "/spec/podSets/0/name" as a person reads it: "spec.podSets[0].name". */
    static String field(String pointer) {
        StringBuilder out = new StringBuilder();
        for (String s : pointer.substring(1).split("/")) {
            if (!s.isEmpty() && s.chars().allMatch(Character::isDigit)) {
                out.append('[').append(s).append(']');
            } else {
                out.append(out.isEmpty() ? "" : ".").append(s);
            }
        }
        return out.toString();
    }
}
