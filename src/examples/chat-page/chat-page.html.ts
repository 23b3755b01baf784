/** The chat page: plain HTML; its script is the bundled browser client (`CHAT_SCRIPT_PATH`). */
export const CHAT_PAGE_HTML =
  `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>hexa-services chat</title>
<style>
  body { font-family: system-ui, sans-serif; max-width: 40rem; margin: 2rem auto; padding: 0 1rem; }
  form { display: flex; gap: .5rem; margin: 1rem 0; flex-wrap: wrap; }
  input { flex: 1; padding: .4rem; }
  #messages { list-style: none; padding: 0; margin: 0; border-top: 1px solid #ddd; border-bottom: 1px solid #ddd; ` +
  `max-height: 60vh; overflow-y: auto; }
  #messages li { padding: .4rem 0; border-bottom: 1px solid #eee; display: flex; gap: .5rem; align-items: baseline; ` +
  `flex-wrap: wrap; }
  #messages .avatar { display: inline-grid; place-items: center; width: 1.8rem; height: 1.8rem; border-radius: 50%; ` +
  `background: #dfe7f5; font-size: .75rem; font-weight: 600; align-self: center; }
  #messages .time { color: #777; font-size: .8rem; }
  #messages .text { flex-basis: 100%; margin-left: 2.3rem; }
  #messages button { font-size: .8rem; }
  #messages .like { margin-left: 2.3rem; }
  .error { color: #b00; }
</style>
</head>
<body>
<h1>Chat</h1>
<p id="status">Connecting…</p>
<section id="signed-out">
  <form id="login-form">
    <input id="email" type="email" placeholder="email" autocomplete="username" required>
    <input id="password" type="password" placeholder="password (8 characters or more)" ` +
  `autocomplete="current-password" required>
    <input id="name" placeholder="your name, shown to others (sign-up)" autocomplete="nickname" maxlength="100">
    <button type="submit" value="login">Log in</button>
    <button type="submit" value="signup">Sign up</button>
  </form>
</section>
<section id="chat" hidden>
  <ul id="messages"></ul>
  <form id="post-form">
    <input id="text" placeholder="Say something" maxlength="5000" autocomplete="off">
    <button type="submit">Send</button>
  </form>
  <button id="logout" type="button">Log out</button>
</section>
<script src="/chat/chat.js"></script>
</body>
</html>
`;

export const CHAT_SCRIPT_PATH = '/chat/chat.js';
