export { chatPage } from './chat-page-router';
