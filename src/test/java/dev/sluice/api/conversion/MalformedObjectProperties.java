package dev.sluice.api.conversion;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** Whatever shape an object has, conversion either converts it or says what is wrong; it never throws anything else. */
class MalformedObjectProperties {

    record Damaged(ObjectNode object, String desired) {
    }

    @Property(tries = 3000)
    void aDamagedObjectIsConvertedOrNamedNeverACrash(@ForAll("damaged") Damaged d) {
        try {
            ObjectNode out = KueueConversion.convert(d.object(), d.desired());
            assertThat(out.get("apiVersion").asText()).isEqualTo(d.desired());
        } catch (ConversionException e) {
            assertThat(e.getMessage()).contains(": ");
        }
    }

    @Provide
    Arbitrary<Damaged> damaged() {
        return Arbitraries.randomValue(random -> {
            boolean v1 = random.nextBoolean();
            ObjectNode o = new KueueObjects(random, v1).any();
            for (int i = 1 + random.nextInt(3); i > 0; i--) {
                damage(o, random);
            }
            return new Damaged(o, v1 ? KueueConversion.V1BETA2 : KueueConversion.V1BETA1);
        }).withoutEdgeCases();
    }

    /** Replaces one node somewhere in the tree with a value of another shape. */
    static void damage(ObjectNode root, Random random) {
        List<JsonNode> containers = new ArrayList<>();
        collect(root, containers);
        JsonNode target = containers.get(random.nextInt(containers.size()));
        JsonNode junk = switch (random.nextInt(5)) {
            case 0 -> JsonNodeFactory.instance.textNode("x");
            case 1 -> JsonNodeFactory.instance.numberNode(7);
            case 2 -> JsonNodeFactory.instance.arrayNode().add(1);
            case 3 -> JsonNodeFactory.instance.objectNode().put("a", "b");
            default -> JsonNodeFactory.instance.nullNode();
        };
        if (target instanceof ObjectNode o && o.size() > 0) {
            List<String> names = new ArrayList<>();
            o.fieldNames().forEachRemaining(names::add);
            o.set(names.get(random.nextInt(names.size())), junk);
        } else if (target instanceof ArrayNode a && a.size() > 0) {
            a.set(random.nextInt(a.size()), junk);
        }
    }

    private static void collect(JsonNode node, List<JsonNode> out) {
        if (node.isContainerNode()) {
            out.add(node);
            node.elements().forEachRemaining(child -> collect(child, out));
        }
    }
}
