export { serveChatPage } from './chat-page';
