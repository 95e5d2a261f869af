/** The delivery guide as a user's repository has it: inside the installed package (the README's sections point at it). */
export const DELIVERY_GUIDE = '`node_modules/antrea-clusterset/docs/delivery.md`';
