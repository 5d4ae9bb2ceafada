/** A sign-in the settings page started in the daemon (issue 29.7), as `GET /v1/oauth/NAME` tells it. */
export type SignInAttempt = { state: 'waiting'; authorizationUrl: string } | { state: 'signedIn' } | { state: 'failed'; message: string };

/** `GET /v1/oauth/NAME`: whether an HTTP server holds a sign-in made for its current URL, and the page's last attempt. */
export interface SignInStatus {
  server: string;
  signedIn: boolean;
  attempt?: SignInAttempt;
}

/** `POST /v1/oauth/NAME/sign-in`: the address to open in the browser; the daemon waits for its redirect. */
export interface SignInStarted {
  server: string;
  authorizationUrl: string;
}

/** `POST /v1/oauth/NAME/sign-out`: whether a sign-in was there to forget. */
export interface SignedOut {
  server: string;
  forgotten: boolean;
}
