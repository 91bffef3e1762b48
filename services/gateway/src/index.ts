export { buildGateway, type GatewayOptions } from './app';
