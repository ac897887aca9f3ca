package dev.sluice.config;

import io.smallrye.config.ConfigSourceContext;
import io.smallrye.config.ConfigSourceFactory;
import io.smallrye.config.ConfigValue;
import io.smallrye.config.common.MapBackedConfigSource;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.config.spi.ConfigSource;
import org.jboss.logging.Logger;

/**
 * {@code sluice.kueue-config=PATH}: Kueue's Configuration file as a source of Sluice settings. It sits above
 * application.properties and below environment variables and system properties, so an explicit Sluice setting
 * still wins. A file that cannot be used stops the start (the exception names file, line and field).
 */
public class KueueConfigSource implements ConfigSourceFactory {

    public static final String PROPERTY = "sluice.kueue-config";
    /** Above application.properties (250), below environment variables (300) and system properties (400). */
    static final int ORDINAL = 275;
    private static final Logger LOG = Logger.getLogger(KueueConfigSource.class);
    /** Start-up builds the configuration more than once; the report is given once per file. */
    private static final Set<String> REPORTED = ConcurrentHashMap.newKeySet();

    @Override
    public Iterable<ConfigSource> getConfigSources(ConfigSourceContext context) {
        ConfigValue path = context.getValue(PROPERTY);
        if (path == null || path.getValue() == null || path.getValue().isBlank()) {
            return List.of();
        }
        KueueConfigReader.Result result = KueueConfigReader.read(Path.of(path.getValue()));
        if (REPORTED.add(path.getValue())) {
            for (String notice : result.notices()) {
                LOG.infof("%s: %s", path.getValue(), notice);
            }
        }
        Map<String, String> properties = new HashMap<>();
        result.integrations().forEach((kind, on) -> properties.put("sluice.integrations." + kind + ".enabled", on.toString()));
        properties.putAll(KueueRetention.properties(result.config().objectRetentionPolicies(), path.getValue()));
        properties.putAll(WaitForPodsReadyMapping.properties(path.getValue(), result.config().apiVersion(),
                result.config().waitForPodsReady()));
        properties.putAll(KueueFairSharing.properties(result.config()));
        properties.putAll(KueueAdmissionFairSharing.properties(result.config().admissionFairSharing(), path.getValue()));
        return List.of(new MapBackedConfigSource("Kueue Configuration " + path.getValue(), properties, ORDINAL) {
        });
    }
}
