package dev.sluice.jobs;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import org.junit.jupiter.api.Test;

/** Patches are checked by applying them with an independent implementation (Parsson, see Patches). */
class JsonDiffTest {

    private static JsonNode json(String s) {
        try {
            return Manifests.JSON.readTree(s.replace('\'', '"'));
        } catch (Exception e) {
            throw new IllegalArgumentException(e);
        }
    }

    private static JsonNode roundTrip(JsonNode from, JsonNode to) {
        JsonNode patch = JsonDiff.diff(from, to);
        assertThat((Object) Patches.apply(patch, from)).isEqualTo(to);
        return patch;
    }

    @Test
    void equalTreesNeedNoPatch() {
        JsonNode a = json("{'a':[1,{'b':null}],'c':'x'}");
        assertThat(JsonDiff.diff(a, a.deepCopy())).isEmpty();
    }

    @Test
    void keysWithTildeAndSlashAreEscaped() {
        JsonNode patch = roundTrip(
                json("{'metadata':{'labels':{'a/b':'1','c~d':'2','~/':'x'}}}"),
                json("{'metadata':{'labels':{'a/b':'9','~/':'x','kueue.x-k8s.io/podset':'main'}}}"));
        assertThat(patch).hasSize(3);
        assertThat(patch.toString())
                .contains("{\"op\":\"remove\",\"path\":\"/metadata/labels/c~0d\"}")
                .contains("{\"op\":\"replace\",\"path\":\"/metadata/labels/a~1b\",\"value\":\"9\"}")
                .contains("{\"op\":\"add\",\"path\":\"/metadata/labels/kueue.x-k8s.io~1podset\",\"value\":\"main\"}");
        assertThat(JsonDiff.escape("~1/")).isEqualTo("~01~1");
    }

    @Test
    void missingParentsAreAddedAsWholeSubtrees() {
        JsonNode patch = roundTrip(
                json("{'spec':{'template':{'spec':{'containers':[]}}}}"),
                json("{'spec':{'template':{'spec':{'containers':[],'affinity':{'podAffinity':{'required':[{'k':1}]}}},"
                        + "'metadata':{'labels':{'x':'y'}}}}}"));
        assertThat(patch).hasSize(2);
        assertThat(patch.toString())
                .contains("\"path\":\"/spec/template/spec/affinity\"")
                .contains("\"path\":\"/spec/template/metadata\"");
    }

    @Test
    void arraysGrowAndShrinkAtTheEnd() {
        JsonNode patch = roundTrip(json("{'t':[1,2,3,4]}"), json("{'t':[1,5]}"));
        assertThat(patch.toString()).isEqualTo("[{\"op\":\"replace\",\"path\":\"/t/1\",\"value\":5},"
                + "{\"op\":\"remove\",\"path\":\"/t/3\"},{\"op\":\"remove\",\"path\":\"/t/2\"}]");
        roundTrip(json("{'t':[1]}"), json("{'t':[1,{'a':1},[2]]}"));
    }

    @Test
    void typeChangesAreReplacedAndNumbersCompareByValue() {
        roundTrip(json("{'a':{'b':1},'c':[1]}"), json("{'a':[1],'c':{'d':2}}"));
        roundTrip(json("[1]"), json("{'a':1}"));
        assertThat(JsonDiff.diff(json("{'n':4}"), json("{'n':4.0}"))).isEmpty();
        roundTrip(json("{'suspend':true}"), json("{'suspend':false}"));
    }
}
