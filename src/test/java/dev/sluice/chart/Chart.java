package dev.sluice.chart;

import com.marcnuri.helm.Helm;
import com.marcnuri.helm.TemplateCommand;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.KubernetesResource;
import io.fabric8.kubernetes.api.model.KubernetesList;
import io.fabric8.kubernetes.client.utils.Serialization;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The chart in helm/sluice rendered by real Helm (helm-java, in-process), parsed into fabric8's typed objects. */
final class Chart {
    static final Path DIR = Path.of("helm", "sluice");
    static final String RELEASE = "sluice";
    static final String NAMESPACE = "sluice-system";

    private Chart() {
    }

    /** `helm template sluice helm/sluice -n sluice-system --set k=v ...` as text. */
    static String renderText(Map<String, Object> values) {
        TemplateCommand cmd = new Helm(DIR).template().withName(RELEASE).withNamespace(NAMESPACE)
                .withKubeVersion("1.31.0");
        values.forEach(cmd::set);
        return cmd.call();
    }

    static Rendered render(Map<String, Object> values) {
        return new Rendered(renderText(values));
    }

    static Rendered render() {
        return render(Map.of());
    }

    /** Every rendered object, typed (unknown kinds such as cert-manager's come back as GenericKubernetesResource). */
    record Rendered(String text, List<HasMetadata> objects) {
        Rendered(String text) {
            this(text, parse(text));
        }

        private static List<HasMetadata> parse(String text) {
            Object parsed = Serialization.unmarshal(text);
            List<HasMetadata> out = new ArrayList<>();
            if (parsed instanceof KubernetesList list) {
                list.getItems().forEach(out::add);
            } else if (parsed instanceof List<?> list) {
                list.stream().filter(o -> o != null).forEach(o -> out.add((HasMetadata) o));
            } else if (parsed instanceof HasMetadata one) {
                out.add(one);
            } else if (parsed != null) {
                throw new IllegalStateException("not a Kubernetes object: " + parsed.getClass());
            }
            return out;
        }

        <T extends KubernetesResource> List<T> all(Class<T> type) {
            return objects.stream().filter(type::isInstance).map(type::cast).toList();
        }

        <T extends HasMetadata> T one(Class<T> type, String name) {
            return find(type, name).orElseThrow(() -> new AssertionError("no " + type.getSimpleName() + " " + name
                    + " rendered; got " + names()));
        }

        <T extends HasMetadata> Optional<T> find(Class<T> type, String name) {
            return objects.stream().filter(type::isInstance).map(type::cast)
                    .filter(o -> name.equals(o.getMetadata().getName())).findFirst();
        }

        List<String> names() {
            return objects.stream().map(o -> o.getKind() + "/" + o.getMetadata().getName()).toList();
        }
    }

    /** Values as --set pairs, in order. */
    static Map<String, Object> values(Object... kv) {
        Map<String, Object> m = new LinkedHashMap<>();
        for (int i = 0; i < kv.length; i += 2) {
            m.put((String) kv[i], kv[i + 1]);
        }
        return m;
    }
}
