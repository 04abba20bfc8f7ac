package dataplatform

import "context"

// SigninAndUseToken signs in with e-mail and password and sends the new session's token on every later call of
// this client (SetToken).
func (r *AuthResource) SigninAndUseToken(ctx context.Context, body SignInRequest, opts ...Option) (*AuthSession, error) {
	session, err := r.Signin(ctx, body, opts...)
	if err != nil {
		return nil, err
	}
	r.client.SetToken(session.Token)
	return session, nil
}
