package dev.sluice.apiserver;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;

/**
 * The API server compares typed objects, not JSON text: an empty map or list is the same as none, and the quantity
 * {@code 1} is the quantity {@code "1"}. This puts a JSON tree in that form (empty objects, arrays and nulls dropped;
 * numbers as their text) so two trees are equal when the server would see the same object.
 */
final class Semantic {

    private Semantic() {
    }

    static JsonNode normal(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return JsonNodeFactory.instance.missingNode();
        }
        if (node.isObject()) {
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            List<String> names = new ArrayList<>();
            node.fieldNames().forEachRemaining(names::add);
            names.sort(String::compareTo);
            for (String name : names) {
                JsonNode value = normal(node.get(name));
                if (!empty(value)) {
                    out.set(name, value);
                }
            }
            return out;
        }
        if (node.isArray()) {
            ArrayNode out = JsonNodeFactory.instance.arrayNode();
            for (Iterator<JsonNode> it = node.elements(); it.hasNext();) {
                out.add(normal(it.next()));
            }
            return out;
        }
        if (node.isNumber()) {
            return JsonNodeFactory.instance.textNode(node.asText());
        }
        return node;
    }

    private static boolean empty(JsonNode value) {
        return value.isNull() || value.isMissingNode() || (value.isContainerNode() && value.isEmpty());
    }

}
