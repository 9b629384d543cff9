import type { ShopPlatform } from '../../../shared/contract';

export const PLATFORM_LABELS: Record<ShopPlatform, string> = { shopify: 'Shopify', woocommerce: 'WooCommerce' };

/** Where each platform's webhook is set up, and what its secret is. */
export const PLATFORM_HELP: Record<ShopPlatform, { secret: string; setup: string }> = {
  shopify: {
    secret: 'Your app’s client secret, or the signing secret shown under Settings › Notifications › Webhooks.',
    setup: 'In Shopify, add a webhook for Order creation (orders/create, JSON) to this URL.',
  },
  woocommerce: {
    secret: 'The Secret you give the webhook in WooCommerce.',
    setup: 'In WooCommerce › Settings › Advanced › Webhooks, add a webhook with the topic Order created to this URL, and the same secret.',
  },
};
