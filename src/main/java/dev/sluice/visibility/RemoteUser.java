package dev.sluice.visibility;

import java.util.List;
import java.util.Map;

/** The user the front proxy vouches for (X-Remote-User, X-Remote-Group, X-Remote-Extra-*). */
record RemoteUser(String name, List<String> groups, Map<String, List<String>> extra) {
}
