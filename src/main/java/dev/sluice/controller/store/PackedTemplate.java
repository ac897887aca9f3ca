package dev.sluice.controller.store;

import com.fasterxml.jackson.core.type.TypeReference;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.DataFormatException;
import java.util.zip.Deflater;
import java.util.zip.Inflater;

/**
 * A pod template of a cached live job, kept as its JSON (UTF-8, deflated) instead of the tree of maps and lists
 * Jackson parsed it into: a batch/v1 Job's template as the API server answers it is about 3 KiB of parsed maps, and
 * its deflated JSON about 200 bytes ({@code JobCacheCost}). Every read parses the JSON again and answers from that fresh tree, so a reader sees exactly what the informer
 * got (the same maps, lists, numbers and strings, in the same order), and a write computed from the cached job
 * (Jackson serialises a map through its entries) is the patch the whole object gives. It cannot be changed: cached
 * objects are never changed in place (writes change a clone, whose maps Jackson makes anew); a mistaken change fails
 * at the top level, and one deeper in changes only that read's fresh copy, never the cache.
 * <p>
 * Inflating and parsing costs some microseconds per read (tens on a loaded machine), paid only by the readers of
 * templates: building, checking ({@code outOfDate}) and starting a job's Workload, a few per event of a waiting job,
 * where converting the template into the model's PodTemplateSpec costs as much again. Status reads (finished,
 * suspended, pods ready), metadata and the rest of the spec never parse it.
 */
final class PackedTemplate extends AbstractMap<String, Object> {

    private static final TypeReference<LinkedHashMap<String, Object>> TREE = new TypeReference<>() {
    };
    /**
     * Words that pod templates share, as a preset dictionary: a template is too small for deflate to learn them from
     * the template itself (about a third less with it). Changing it makes earlier bytes unreadable, which is harmless:
     * the bytes live in this process only.
     */
    private static final byte[] DICTIONARY = ("{\"metadata\":{\"labels\":{\"annotations\":{\"spec\":{\"restartPolicy\":"
            + "\"Never\",\"OnFailure\",\"Always\",\"containers\":[{\"name\":\"image\":\"imagePullPolicy\":\"IfNotPresent\""
            + "\"command\":[\"args\":[\"env\":[{\"value\":\"valueFrom\":\"ports\":[{\"containerPort\":\"protocol\":\"TCP\""
            + "\"resources\":{\"requests\":{\"limits\":{\"cpu\":\"memory\":\"nvidia.com/gpu\":\"google.com/tpu\":"
            + "\"terminationMessagePath\":\"/dev/termination-log\",\"terminationMessagePolicy\":\"File\","
            + "\"volumeMounts\":[{\"mountPath\":\"volumes\":[{\"emptyDir\":{},\"securityContext\":{},"
            + "\"schedulerName\":\"default-scheduler\",\"dnsPolicy\":\"ClusterFirst\",\"terminationGracePeriodSeconds\":30,"
            + "\"nodeSelector\":{\"tolerations\":[{\"key\":\"operator\":\"Exists\",\"effect\":\"NoSchedule\","
            + "\"priorityClassName\":\"serviceAccountName\":\"affinity\":{\"initContainers\":[{\"workingDir\":"
            + "\"batch.kubernetes.io/controller-uid\":\"batch.kubernetes.io/job-name\":\"controller-uid\":\"job-name\":"
            + "\"jobset.sigs.k8s.io/\"kueue.x-k8s.io/podset\":\"main\"").getBytes(StandardCharsets.UTF_8);

    private static final ThreadLocal<Deflater> DEFLATERS = ThreadLocal.withInitial(() -> new Deflater(Deflater.BEST_COMPRESSION));
    private static final ThreadLocal<Inflater> INFLATERS = ThreadLocal.withInitial(Inflater::new);

    private final byte[] deflated;
    private final int jsonLength;
    /** Of the JSON, to tell an unchanged template (most watch events change status only) without inflating. */
    private final int jsonHash;
    private final int size;

    private PackedTemplate(byte[] deflated, int jsonLength, int jsonHash, int size) {
        this.deflated = deflated;
        this.jsonLength = jsonLength;
        this.jsonHash = jsonHash;
        this.size = size;
    }

    /**
     * The template packed; the tree given is left as it was (the caller puts this in its place). One of {@code earlier}
     * (the packed templates of the job's previous version) whose JSON is the same byte for byte is used again, so an
     * event that leaves the templates as they were (a status update) costs no compression and no new bytes.
     */
    static PackedTemplate of(Map<String, Object> template, List<PackedTemplate> earlier) {
        byte[] json;
        try {
            json = Serialization.jsonMapper().writeValueAsBytes(template);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int hash = Arrays.hashCode(json);
        for (PackedTemplate p : earlier) {
            if (p.jsonLength == json.length && p.jsonHash == hash && Arrays.equals(p.json(), json)) {
                return p;
            }
        }
        Deflater deflater = DEFLATERS.get();
        deflater.reset();
        deflater.setDictionary(DICTIONARY);
        deflater.setInput(json);
        deflater.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream(json.length / 2 + 16);
        byte[] buffer = new byte[1024];
        while (!deflater.finished()) {
            out.write(buffer, 0, deflater.deflate(buffer));
        }
        return new PackedTemplate(out.toByteArray(), json.length, hash, template.size());
    }

    /** Bytes kept (the deflated JSON). */
    int packedBytes() {
        return deflated.length;
    }

    /** The template as the informer got it, parsed anew: a tree of this read's own, which nothing else holds. */
    Map<String, Object> tree() {
        try {
            return Serialization.jsonMapper().readValue(json(), TREE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private byte[] json() {
        byte[] json = new byte[jsonLength];
        Inflater inflater = INFLATERS.get();
        inflater.reset();
        inflater.setInput(deflated);
        try {
            int n = inflater.inflate(json);
            if (n == 0 && inflater.needsDictionary()) {
                inflater.setDictionary(DICTIONARY);
                n = inflater.inflate(json);
            }
            if (n != jsonLength || !inflater.finished()) {
                throw new IllegalStateException("a packed pod template inflated to " + n + " of its " + jsonLength
                        + " bytes");
            }
            return json;
        } catch (DataFormatException e) {
            throw new IllegalStateException("a packed pod template is corrupt: " + e.getMessage(), e);
        }
    }

    @Override
    public Set<Map.Entry<String, Object>> entrySet() {
        return Collections.unmodifiableMap(tree()).entrySet();
    }

    @Override
    public Object get(Object key) {
        return tree().get(key);
    }

    @Override
    public boolean containsKey(Object key) {
        return tree().containsKey(key);
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public boolean isEmpty() {
        return size == 0;
    }
}
