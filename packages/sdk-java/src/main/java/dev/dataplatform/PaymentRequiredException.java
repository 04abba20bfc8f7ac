package dev.dataplatform;

/** 402: the plan's credits or billing do not allow the call ({@code payment_required}). */
public class PaymentRequiredException extends ApiStatusException {
  private static final long serialVersionUID = 1L;

  public PaymentRequiredException(Answer answer) {
    super(answer);
  }
}
