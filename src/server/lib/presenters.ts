/** `links` of a resource (docs/api-conventions.md): its absolute URL as `self`. */
export function selfLinks(publicUrl: string, collection: string, uuid: string): Array<{ rel: string; uri: string }> {
  return [{ rel: 'self', uri: `${publicUrl}/api/2.0/${collection}/${uuid}` }];
}
