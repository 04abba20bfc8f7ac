package dev.dataplatform.conformance;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The variables and matchers of spec/conformance/README.md, with JavaScript's JSON semantics. A field or header
 * that is not there is a {@link MissingNode} (JSON has no undefined; the format does).
 */
final class Match {
  static final ObjectMapper JSON = new ObjectMapper();
  private static final Pattern WHOLE = Pattern.compile("^\\{\\{\\s*([$\\w.-]+)\\s*\\}\\}$");
  private static final Pattern PART = Pattern.compile("\\{\\{\\s*([$\\w.-]+)\\s*\\}\\}");

  private Match() {}

  /** A case that cannot run: an unknown variable, a capture of nothing the format names. */
  static final class CaseError extends RuntimeException {
    private static final long serialVersionUID = 1L;

    CaseError(String message) {
      super(message);
    }
  }

  static JsonNode pathValue(JsonNode root, String path) {
    JsonNode value = root;
    for (String part : path.split("\\.", -1)) {
      if (value.isObject()) value = value.path(part);
      else if (value.isArray() && part.matches("\\d+") && Integer.parseInt(part) < value.size()) value = value.get(Integer.parseInt(part));
      else return MissingNode.getInstance();
      if (value.isMissingNode()) return value;
    }
    return value;
  }

  static JsonNode lookup(JsonNode variables, String path) {
    JsonNode value = pathValue(variables, path);
    if (value.isMissingNode()) throw new CaseError("unknown variable {{" + path + "}}");
    return value;
  }

  /** JSON as JavaScript writes it: no spaces, non-ASCII kept. */
  static String jsonText(JsonNode value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (Exception error) {
      throw new CaseError(error.getMessage());
    }
  }

  static JsonNode interpolate(JsonNode value, JsonNode variables) {
    if (value.isTextual()) {
      Matcher whole = WHOLE.matcher(value.asText());
      if (whole.matches()) return lookup(variables, whole.group(1));
      Matcher part = PART.matcher(value.asText());
      StringBuilder out = new StringBuilder();
      while (part.find()) {
        JsonNode found = lookup(variables, part.group(1));
        part.appendReplacement(out, Matcher.quoteReplacement(found.isTextual() ? found.asText() : jsonText(found)));
      }
      part.appendTail(out);
      return TextNode.valueOf(out.toString());
    }
    if (value.isArray()) {
      ArrayNode out = JSON.createArrayNode();
      value.forEach(item -> out.add(interpolate(item, variables)));
      return out;
    }
    if (value.isObject()) {
      ObjectNode out = JSON.createObjectNode();
      value.properties().forEach(e -> out.set(e.getKey(), interpolate(e.getValue(), variables)));
      return out;
    }
    return value;
  }

  private static String typeOf(JsonNode value) {
    if (value.isMissingNode()) return "undefined";
    if (value.isNull()) return "null";
    if (value.isBoolean()) return "boolean";
    if (value.isNumber()) return "number";
    if (value.isTextual()) return "string";
    if (value.isArray()) return "array";
    return "object";
  }

  /** JSON equality: true is not 1, and 1 equals 1.0. */
  static boolean equal(JsonNode a, JsonNode b) {
    if (!typeOf(a).equals(typeOf(b))) return false;
    if (a.isNumber()) return a.decimalValue().compareTo(b.decimalValue()) == 0;
    if (a.isArray()) {
      if (a.size() != b.size()) return false;
      for (int i = 0; i < a.size(); i++) if (!equal(a.get(i), b.get(i))) return false;
      return true;
    }
    if (a.isObject()) {
      if (a.size() != b.size()) return false;
      for (Map.Entry<String, JsonNode> entry : a.properties()) {
        if (!b.has(entry.getKey()) || !equal(entry.getValue(), b.get(entry.getKey()))) return false;
      }
      return true;
    }
    return a.equals(b);
  }

  static String show(JsonNode value) {
    String text = value.isMissingNode() ? "nothing" : jsonText(value);
    return text.length() > 300 ? text.substring(0, 300) + "…" : text;
  }

  private static boolean isOperator(JsonNode matcher) {
    if (matcher.size() == 0) return false;
    for (Iterator<String> names = matcher.fieldNames(); names.hasNext(); ) if (!names.next().startsWith("$")) return false;
    return true;
  }

  /** Every way {@code actual} differs from {@code matcher}, each naming where; empty when it matches. */
  static List<String> mismatches(JsonNode actual, JsonNode matcher, JsonNode variables, String at) {
    List<String> out = new ArrayList<>();
    if (matcher.isTextual()) {
      JsonNode expected = interpolate(matcher, variables);
      if (!equal(actual, expected)) out.add(at + ": expected " + show(expected) + ", got " + show(actual));
    } else if (matcher.isArray()) {
      if (!actual.isArray()) out.add(at + ": expected an array, got " + show(actual));
      else if (actual.size() != matcher.size()) out.add(at + ": expected " + matcher.size() + " items, got " + actual.size());
      else for (int i = 0; i < matcher.size(); i++) out.addAll(mismatches(actual.get(i), matcher.get(i), variables, at + "." + i));
    } else if (matcher.isObject()) {
      if (isOperator(matcher)) return operatorMismatches(actual, matcher, variables, at);
      if (!actual.isObject()) {
        out.add(at + ": expected an object, got " + show(actual));
        return out;
      }
      matcher.properties().forEach(entry -> {
        JsonNode sub = entry.getValue();
        if (!actual.has(entry.getKey())) {
          boolean absent = sub.isObject() && sub.path("$absent").asBoolean(false);
          if (!absent) out.add(at + "." + entry.getKey() + ": missing, expected " + show(sub));
          return;
        }
        out.addAll(mismatches(actual.get(entry.getKey()), sub, variables, at + "." + entry.getKey()));
      });
    } else if (!equal(actual, matcher)) {
      out.add(at + ": expected " + show(matcher) + ", got " + show(actual));
    }
    return out;
  }

  private static List<String> operatorMismatches(JsonNode actual, JsonNode operator, JsonNode variables, String at) {
    List<String> out = new ArrayList<>();
    operator.properties().forEach(entry -> {
      JsonNode argument = entry.getValue();
      switch (entry.getKey()) {
        case "$any" -> {
          if (actual.isMissingNode()) out.add(at + ": missing");
        }
        case "$absent" -> {
          if (!actual.isMissingNode()) out.add(at + ": expected nothing, got " + show(actual));
        }
        case "$type" -> {
          String kind = typeOf(actual);
          if (argument.asText().equals("integer") && actual.isNumber()
              && actual.decimalValue().stripTrailingZeros().scale() <= 0) kind = "integer";
          if (!kind.equals(argument.asText())) out.add(at + ": expected a value of type " + argument.asText() + ", got " + show(actual));
        }
        case "$regex" -> {
          if (!actual.isTextual() || !Pattern.compile(argument.asText()).matcher(actual.asText()).find()) {
            out.add(at + ": expected a string matching /" + argument.asText() + "/, got " + show(actual));
          }
        }
        case "$length" -> {
          // JavaScript counts UTF-16 code units, as Java's String.length() does.
          int length = actual.isTextual() ? actual.asText().length() : actual.isArray() ? actual.size() : -1;
          if (length != argument.asInt()) out.add(at + ": expected length " + argument + ", got " + show(actual));
        }
        case "$contains" -> {
          boolean found = false;
          if (actual.isArray()) for (JsonNode item : actual) found |= mismatches(item, argument, variables, at).isEmpty();
          if (!found) out.add(at + ": expected an array with an item like " + show(argument) + ", got " + show(actual));
        }
        default -> out.add(at + ": unknown matcher " + entry.getKey());
      }
    });
    return out;
  }
}
