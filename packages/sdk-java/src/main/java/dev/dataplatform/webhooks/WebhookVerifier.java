package dev.dataplatform.webhooks;

import java.net.http.HttpHeaders;
import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Verifies webhook deliveries, following spec/webhooks/README.md in its order (presence, format, age, then each
 * signature scheme present), so it gives every vector of spec/webhooks/vectors.json its expected result.
 *
 * <pre>{@code
 * WebhookVerifier verifier = new WebhookVerifier(List.of(System.getenv("WEBHOOK_SECRET")));
 * verifier.verify(rawBody, request.headers()); // throws WebhookVerificationException
 * }</pre>
 */
public final class WebhookVerifier {
  /** How far a delivery's timestamps may be from now in either direction, by default. */
  public static final Duration DEFAULT_TOLERANCE = Duration.ofSeconds(300);

  private static final Pattern HEX = Pattern.compile("^[0-9a-fA-F]{64}$");
  private static final Pattern BASE64_SHA256 = Pattern.compile("^[A-Za-z0-9+/]{43}=$");
  private static final Pattern SECONDS = Pattern.compile("^[0-9]{1,12}$");

  private final List<String> secrets;
  private final Duration tolerance;
  private final Clock clock;

  /** A verifier of one subscription's secret ({@code whsec_...}), or of several while one rotates. */
  public WebhookVerifier(List<String> secrets) {
    this(List.copyOf(secrets), DEFAULT_TOLERANCE, Clock.systemUTC());
  }

  /** A verifier of one secret. */
  public WebhookVerifier(String secret) {
    this(List.of(secret));
  }

  private WebhookVerifier(List<String> secrets, Duration tolerance, Clock clock) {
    this.secrets = secrets;
    this.tolerance = tolerance;
    this.clock = clock;
  }

  /** The same verifier with another tolerance. */
  public WebhookVerifier withTolerance(Duration tolerance) {
    return new WebhookVerifier(secrets, tolerance, clock);
  }

  /** The same verifier reading another clock (for tests). */
  public WebhookVerifier withClock(Clock clock) {
    return new WebhookVerifier(secrets, tolerance, clock);
  }

  /** {@link #verify(byte[], Map)} with the headers of a {@code java.net.http} answer or request. */
  public void verify(byte[] body, HttpHeaders headers) throws WebhookVerificationException {
    verify(body, headers.map());
  }

  /** {@link #verify(byte[], Map)} of a body received as text (its UTF-8 bytes are checked). */
  public void verify(String body, Map<String, ? extends List<String>> headers)
      throws WebhookVerificationException {
    verify(body.getBytes(StandardCharsets.UTF_8), headers);
  }

  /**
   * Returns when every signature scheme present checks out; otherwise throws. {@code body} is the raw body exactly
   * as received, never a parsed and re-serialised form; {@code headers} map names in any case to their values (one
   * per time the header was sent).
   */
  public void verify(byte[] body, Map<String, ? extends List<String>> headers)
      throws WebhookVerificationException {
    String hexHeader = joined(headers, "x-webhook-signature", ",");
    String standardHeader = joined(headers, "webhook-signature", " ");
    if (hexHeader == null && standardHeader == null) {
      throw new WebhookVerificationException(
          "missing_header", "neither X-Webhook-Signature nor webhook-signature is present", "x-webhook-signature");
    }
    String messageId = null;
    String stamp = null;
    long standardSeconds = 0;
    List<String> standardSignatures = null;
    if (standardHeader != null) {
      messageId = single(headers, "webhook-id");
      stamp = single(headers, "webhook-timestamp");
      if (messageId == null || stamp == null) {
        String missing = messageId == null ? "webhook-id" : "webhook-timestamp";
        throw new WebhookVerificationException(
            "missing_header", "webhook-signature is present but " + missing + " is not", missing);
      }
      standardSeconds = seconds(stamp, "webhook-timestamp");
      standardSignatures = standardSignatures(standardHeader);
    }
    String plainStamp = single(headers, "x-webhook-timestamp");
    Long plainSeconds = plainStamp == null ? null : seconds(plainStamp, "x-webhook-timestamp");
    List<String> hexSignatures = hexHeader == null ? null : hexSignatures(hexHeader);

    long now = clock.instant().getEpochSecond();
    if (standardSignatures != null) checkAge(standardSeconds, now, "webhook-timestamp");
    if (plainSeconds != null) checkAge(plainSeconds, now, "x-webhook-timestamp");

    if (hexSignatures != null) {
      List<String> expected = new ArrayList<>();
      for (String secret : secrets) {
        expected.add(HexFormat.of().formatHex(hmac(secret.getBytes(StandardCharsets.UTF_8), body)));
      }
      List<String> given = hexSignatures.stream().map(s -> s.toLowerCase(Locale.ROOT)).toList();
      if (!anyEqual(expected, given)) {
        throw new WebhookVerificationException(
            "invalid_signature", "no X-Webhook-Signature matches", "x-webhook-signature");
      }
    }
    if (standardSignatures != null) {
      List<byte[]> keys = new ArrayList<>();
      for (String secret : secrets) {
        byte[] key = standardKey(secret);
        if (key != null) keys.add(key);
      }
      if (keys.isEmpty()) {
        throw new WebhookVerificationException(
            "invalid_secret", "no secret is a Standard Webhooks key (base64 after whsec_)", "webhook-signature");
      }
      byte[] prefix = (messageId + "." + stamp + ".").getBytes(StandardCharsets.UTF_8);
      byte[] signed = new byte[prefix.length + body.length];
      System.arraycopy(prefix, 0, signed, 0, prefix.length);
      System.arraycopy(body, 0, signed, prefix.length, body.length);
      List<String> expected = new ArrayList<>();
      for (byte[] key : keys) expected.add(Base64.getEncoder().encodeToString(hmac(key, signed)));
      if (!anyEqual(expected, standardSignatures)) {
        throw new WebhookVerificationException(
            "invalid_signature", "no webhook-signature v1 entry matches", "webhook-signature");
      }
    }
  }

  private static List<String> values(Map<String, ? extends List<String>> headers, String name) {
    for (var entry : headers.entrySet()) {
      if (entry.getKey() != null && entry.getKey().equalsIgnoreCase(name)) return entry.getValue();
    }
    return null;
  }

  private static String single(Map<String, ? extends List<String>> headers, String name)
      throws WebhookVerificationException {
    List<String> values = values(headers, name);
    if (values == null) return null;
    Set<String> distinct = new LinkedHashSet<>();
    for (String value : values) if (!value.strip().isEmpty()) distinct.add(value.strip());
    if (distinct.size() > 1) {
      throw new WebhookVerificationException(
          "malformed_header", name + " was sent more than once with different values", name);
    }
    return distinct.isEmpty() ? null : distinct.iterator().next();
  }

  private static String joined(Map<String, ? extends List<String>> headers, String name, String separator) {
    List<String> values = values(headers, name);
    if (values == null) return null;
    String text = String.join(separator, values);
    return text.isBlank() ? null : text;
  }

  private static long seconds(String value, String name) throws WebhookVerificationException {
    if (!SECONDS.matcher(value).matches()) {
      throw new WebhookVerificationException("malformed_header", name + " must be Unix time in whole seconds", name);
    }
    return Long.parseLong(value);
  }

  private static List<String> hexSignatures(String value) throws WebhookVerificationException {
    List<String> signatures = new ArrayList<>();
    for (String each : value.split(",", -1)) if (!each.strip().isEmpty()) signatures.add(each.strip());
    if (signatures.isEmpty() || !signatures.stream().allMatch(s -> HEX.matcher(s).matches())) {
      throw new WebhookVerificationException(
          "malformed_header",
          "X-Webhook-Signature must be 64 hex digits (HMAC-SHA256), or several separated by commas",
          "x-webhook-signature");
    }
    return signatures;
  }

  private static List<String> standardSignatures(String value) throws WebhookVerificationException {
    List<String> signatures = new ArrayList<>();
    for (String spaced : value.split(" ", -1)) {
      // HTTP libraries join a repeated header with ", ", which leaves a comma after all but the last entry.
      String entry =
          spaced.endsWith(",") && spaced.indexOf(',') < spaced.length() - 1
              ? spaced.substring(0, spaced.length() - 1)
              : spaced;
      if (entry.isEmpty()) continue;
      int comma = entry.indexOf(',');
      String version = comma < 0 ? "" : entry.substring(0, comma);
      String signature = comma < 0 ? "" : entry.substring(comma + 1);
      if (comma < 0 || version.isEmpty() || (version.equals("v1") && !BASE64_SHA256.matcher(signature).matches())) {
        throw new WebhookVerificationException(
            "malformed_header",
            "webhook-signature must be space-separated entries of the form v1,<base64 of 32 bytes>",
            "webhook-signature");
      }
      if (version.equals("v1")) signatures.add(signature);
    }
    return signatures;
  }

  private void checkAge(long timestamp, long now, String name) throws WebhookVerificationException {
    long age = now - timestamp;
    long limit = tolerance.getSeconds();
    if (age > limit) {
      throw new WebhookVerificationException(
          "timestamp_too_old", name + " is " + age + " s old, more than " + limit + " s", name);
    }
    if (-age > limit) {
      throw new WebhookVerificationException(
          "timestamp_in_future", name + " is " + -age + " s ahead of this clock, more than " + limit + " s", name);
    }
  }

  private static byte[] standardKey(String secret) {
    String text = secret.startsWith("whsec_") ? secret.substring("whsec_".length()) : secret;
    // Standard base64 with its padding (RFC 4648 section 4); Java's decoder also takes a missing padding, refused here.
    if (text.length() % 4 != 0) return null;
    try {
      byte[] key = Base64.getDecoder().decode(text);
      return key.length == 0 ? null : key;
    } catch (IllegalArgumentException error) {
      return null;
    }
  }

  private static byte[] hmac(byte[] key, byte[] message) {
    try {
      Mac mac = Mac.getInstance("HmacSHA256");
      mac.init(new SecretKeySpec(key, "HmacSHA256"));
      return mac.doFinal(message);
    } catch (NoSuchAlgorithmException | InvalidKeyException error) {
      throw new IllegalStateException("HmacSHA256 is part of every Java runtime", error);
    }
  }

  private static boolean anyEqual(List<String> expected, List<String> given) {
    boolean found = false;
    for (String a : expected) {
      for (String b : given) {
        // Every pair is compared, in constant time each, so the time says nothing about which matched.
        found |= MessageDigest.isEqual(a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
      }
    }
    return found;
  }
}
