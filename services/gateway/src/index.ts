export { buildGateway, EXCEPTIONS, type GatewayOptions } from './app';
