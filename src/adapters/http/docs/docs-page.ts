/** Where the page, its assets and the document are served. */
export const DOCS_PATH = '/docs';
export const DOCUMENT_PATH = '/openapi.json';
export const INIT_SCRIPT = 'init.js';

/** Files of swagger-ui-dist the page uses, served from node_modules as they are. */
export const SWAGGER_UI_FILES = [
  'swagger-ui.css',
  'swagger-ui-bundle.js',
  'index.css',
  'favicon-32x32.png',
  'favicon-16x16.png',
] as const;

/** The page: only external scripts and styles, so helmet's CSP (`script-src 'self'`) holds without exceptions. */
export const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>API documentation</title>
<link rel="stylesheet" href="${DOCS_PATH}/swagger-ui.css">
<link rel="stylesheet" href="${DOCS_PATH}/index.css">
<link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-32x32.png" sizes="32x32">
<link rel="icon" type="image/png" href="${DOCS_PATH}/favicon-16x16.png" sizes="16x16">
</head>
<body>
<div id="swagger-ui"></div>
<script src="${DOCS_PATH}/swagger-ui-bundle.js"></script>
<script src="${DOCS_PATH}/${INIT_SCRIPT}"></script>
</body>
</html>
`;

/**
 * Starts Swagger UI on this server's document, served as a file (no inline script). A
 * successful `POST /authentication` made from the page authorizes the page with its token, so a
 * person logs in with "Try it out" and then calls the protected routes. No validator badge: the
 * page fetches nothing but this server.
 */
export const INIT_SCRIPT_SOURCE =
  `'use strict';
window.addEventListener('load', function () {
  var ui = SwaggerUIBundle({
    url: '${DOCUMENT_PATH}',
    dom_id: '#swagger-ui',
    deepLinking: true,
    validatorUrl: null,
    displayRequestDuration: true,
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    responseInterceptor: function (response) {
      var body = response.body;
      if (response.ok && /\\/authentication(\\?|$)/.test(response.url) && body && typeof body.accessToken === ` +
  `'string') {
        ui.preauthorizeApiKey('bearerAuth', body.accessToken);
      }
      return response;
    },
  });
  window.ui = ui;
});
`;
